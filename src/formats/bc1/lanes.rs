//! Eight f32 lanes and the few operations the BC1 refinement needs on them: AVX2 intrinsics
//! where the CPU has them, SSE2 on any other x86-64, plain arrays elsewhere. Every operation is
//! one IEEE operation per lane (no fused multiply-add), so all three give the same bits.

/// AVX2: one 256-bit register per value. Callable only from code compiled with AVX2.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub struct V(__m256);
    /// A lane mask: all ones where true.
    #[derive(Clone, Copy)]
    pub struct M(__m256);

    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn splat(x: f32) -> V {
        V(_mm256_set1_ps(x))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn load(a: &[f32; 8]) -> V {
        // SAFETY: reads exactly the 8 floats of the array
        V(unsafe { _mm256_loadu_ps(a.as_ptr()) })
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn store(v: V) -> [f32; 8] {
        let mut a = [0f32; 8];
        // SAFETY: writes exactly the 8 floats of the array
        unsafe { _mm256_storeu_ps(a.as_mut_ptr(), v.0) };
        a
    }
    /// The 16 texels of eight 4x4 blocks of an RGBA8 image (each block's top-left byte at
    /// `starts[lane]`, rows `stride` bytes apart), channel by channel, times three.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn load_blocks(rgba: &[u8], stride: usize, starts: &[usize; 8]) -> [[V; 16]; 3] {
        let first = starts.iter().copied().min().unwrap_or(0);
        let last = starts.iter().copied().max().unwrap_or(0) + 3 * stride + 16;
        assert!(last <= rgba.len(), "block past the end of the image");
        if last - first > i32::MAX as usize {
            let p = super::portable::load_blocks(rgba, stride, starts);
            return p.map(|channel| channel.map(|v| load(&super::portable::store(v))));
        }
        let base = rgba[first..].as_ptr().cast::<i32>();
        let mut offsets = [0i32; 8];
        for (o, s) in offsets.iter_mut().zip(starts) {
            *o = (s - first) as i32;
        }
        // SAFETY: reads the 8 offsets of the array
        let starts = unsafe { _mm256_loadu_si256(offsets.as_ptr().cast()) };
        let byte = _mm256_set1_epi32(0xff);
        let three = _mm256_set1_ps(3.0);
        let zero = V(_mm256_setzero_ps());
        let mut out = [[zero; 16]; 3];
        for y in 0..4 {
            for x in 0..4 {
                let at = _mm256_add_epi32(starts, _mm256_set1_epi32((y * stride + x * 4) as i32));
                // SAFETY: every offset is below `last - first - 3`, checked above, so each
                // 4-byte read lies inside `rgba`
                let rgba_words = unsafe { _mm256_i32gather_epi32::<1>(base, at) };
                let channel = |shift: i32| {
                    let v = _mm256_and_si256(
                        _mm256_srlv_epi32(rgba_words, _mm256_set1_epi32(shift)),
                        byte,
                    );
                    V(_mm256_mul_ps(_mm256_cvtepi32_ps(v), three))
                };
                out[0][y * 4 + x] = channel(0);
                out[1][y * 4 + x] = channel(8);
                out[2][y * 4 + x] = channel(16);
            }
        }
        out
    }
    /// The lanes as integers (they hold whole numbers).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn to_i32(v: V) -> [i32; 8] {
        let mut a = [0i32; 8];
        // SAFETY: writes exactly the 8 integers of the array
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), _mm256_cvttps_epi32(v.0)) };
        a
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn add(a: V, b: V) -> V {
        V(_mm256_add_ps(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn sub(a: V, b: V) -> V {
        V(_mm256_sub_ps(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn mul(a: V, b: V) -> V {
        V(_mm256_mul_ps(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn div(a: V, b: V) -> V {
        V(_mm256_div_ps(a.0, b.0))
    }
    /// `a < b ? a : b` per lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn min(a: V, b: V) -> V {
        V(_mm256_min_ps(a.0, b.0))
    }
    /// `a > b ? a : b` per lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn max(a: V, b: V) -> V {
        V(_mm256_max_ps(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn floor(a: V) -> V {
        V(_mm256_floor_ps(a.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn lt(a: V, b: V) -> M {
        M(_mm256_cmp_ps::<_CMP_LT_OQ>(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn le(a: V, b: V) -> M {
        M(_mm256_cmp_ps::<_CMP_LE_OQ>(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn eq(a: V, b: V) -> M {
        M(_mm256_cmp_ps::<_CMP_EQ_OQ>(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn ne(a: V, b: V) -> M {
        M(_mm256_cmp_ps::<_CMP_NEQ_UQ>(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn and(a: M, b: M) -> M {
        M(_mm256_and_ps(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn not(a: M) -> M {
        M(_mm256_xor_ps(
            a.0,
            _mm256_castsi256_ps(_mm256_set1_epi32(-1)),
        ))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn or(a: M, b: M) -> M {
        M(_mm256_or_ps(a.0, b.0))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn any(m: M) -> bool {
        _mm256_movemask_ps(m.0) != 0
    }
    /// `m ? a : b` per lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn select(m: M, a: V, b: V) -> V {
        V(_mm256_blendv_ps(b.0, a.0, m.0))
    }
    /// 1.0 where the mask is set, else 0.0.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn ones(m: M) -> V {
        V(_mm256_and_ps(m.0, _mm256_set1_ps(1.0)))
    }
}

/// SSE2, which every x86-64 CPU has: two 128-bit registers per value.
#[cfg(target_arch = "x86_64")]
pub mod sse2 {
    use std::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub struct V(__m128, __m128);
    /// A lane mask: all ones where true.
    #[derive(Clone, Copy)]
    pub struct M(__m128, __m128);

    /// Lane-wise operations as one intrinsic on each half.
    macro_rules! halves {
        ($($name:ident($a:ident: $ta:ident, $b:ident: $tb:ident) -> $out:ident = $op:ident;)*) => {
            $(
                #[inline]
                #[target_feature(enable = "sse2")]
                pub fn $name($a: $ta, $b: $tb) -> $out {
                    $out($op($a.0, $b.0), $op($a.1, $b.1))
                }
            )*
        };
    }
    halves! {
        add(a: V, b: V) -> V = _mm_add_ps;
        sub(a: V, b: V) -> V = _mm_sub_ps;
        mul(a: V, b: V) -> V = _mm_mul_ps;
        div(a: V, b: V) -> V = _mm_div_ps;
        min(a: V, b: V) -> V = _mm_min_ps;
        max(a: V, b: V) -> V = _mm_max_ps;
        lt(a: V, b: V) -> M = _mm_cmplt_ps;
        le(a: V, b: V) -> M = _mm_cmple_ps;
        eq(a: V, b: V) -> M = _mm_cmpeq_ps;
        ne(a: V, b: V) -> M = _mm_cmpneq_ps;
        and(a: M, b: M) -> M = _mm_and_ps;
        or(a: M, b: M) -> M = _mm_or_ps;
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn splat(x: f32) -> V {
        V(_mm_set1_ps(x), _mm_set1_ps(x))
    }
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn load(a: &[f32; 8]) -> V {
        // SAFETY: reads exactly the 8 floats of the array
        unsafe { V(_mm_loadu_ps(a.as_ptr()), _mm_loadu_ps(a.as_ptr().add(4))) }
    }
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn store(v: V) -> [f32; 8] {
        let mut a = [0f32; 8];
        // SAFETY: writes exactly the 8 floats of the array
        unsafe {
            _mm_storeu_ps(a.as_mut_ptr(), v.0);
            _mm_storeu_ps(a.as_mut_ptr().add(4), v.1);
        }
        a
    }
    /// The 16 texels of eight 4x4 blocks of an RGBA8 image (each block's top-left byte at
    /// `starts[lane]`, rows `stride` bytes apart), channel by channel, times three.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn load_blocks(rgba: &[u8], stride: usize, starts: &[usize; 8]) -> [[V; 16]; 3] {
        let p = super::portable::load_blocks(rgba, stride, starts);
        let mut out = [[splat(0.0); 16]; 3];
        for c in 0..3 {
            for i in 0..16 {
                out[c][i] = load(&super::portable::store(p[c][i]));
            }
        }
        out
    }
    /// The lanes as integers (they hold whole numbers).
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn to_i32(v: V) -> [i32; 8] {
        let mut a = [0i32; 8];
        // SAFETY: writes exactly the 8 integers of the array
        unsafe {
            _mm_storeu_si128(a.as_mut_ptr().cast(), _mm_cvttps_epi32(v.0));
            _mm_storeu_si128(a.as_mut_ptr().add(4).cast(), _mm_cvttps_epi32(v.1));
        }
        a
    }
    /// Rounded towards zero, then down one where that went up (exact below 2^31).
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn floor(a: V) -> V {
        V(floor_half(a.0), floor_half(a.1))
    }
    #[inline]
    #[target_feature(enable = "sse2")]
    fn floor_half(x: __m128) -> __m128 {
        let t = _mm_cvtepi32_ps(_mm_cvttps_epi32(x));
        _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, x), _mm_set1_ps(1.0)))
    }
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn not(a: M) -> M {
        let ones = _mm_castsi128_ps(_mm_set1_epi32(-1));
        M(_mm_xor_ps(a.0, ones), _mm_xor_ps(a.1, ones))
    }
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn any(m: M) -> bool {
        (_mm_movemask_ps(m.0) | _mm_movemask_ps(m.1)) != 0
    }
    /// `m ? a : b` per lane.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn select(m: M, a: V, b: V) -> V {
        let half =
            |m: __m128, a: __m128, b: __m128| _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
        V(half(m.0, a.0, b.0), half(m.1, a.1, b.1))
    }
    /// 1.0 where the mask is set, else 0.0.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub fn ones(m: M) -> V {
        let one = _mm_set1_ps(1.0);
        V(_mm_and_ps(m.0, one), _mm_and_ps(m.1, one))
    }
}

/// Plain arrays, for other CPUs (and as the reference the others are tested against; on
/// x86-64 the refinement itself only borrows its texel loading).
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
pub mod portable {
    #[derive(Clone, Copy)]
    pub struct V([f32; 8]);
    #[derive(Clone, Copy)]
    pub struct M([bool; 8]);

    #[inline(always)]
    fn map2(a: V, b: V, f: impl Fn(f32, f32) -> f32) -> V {
        V(std::array::from_fn(|l| f(a.0[l], b.0[l])))
    }
    #[inline(always)]
    fn test(a: V, b: V, f: impl Fn(f32, f32) -> bool) -> M {
        M(std::array::from_fn(|l| f(a.0[l], b.0[l])))
    }

    #[inline(always)]
    pub fn splat(x: f32) -> V {
        V([x; 8])
    }
    #[inline(always)]
    pub fn load(a: &[f32; 8]) -> V {
        V(*a)
    }
    #[inline(always)]
    pub fn store(v: V) -> [f32; 8] {
        v.0
    }
    /// The 16 texels of eight 4x4 blocks of an RGBA8 image (each block's top-left byte at
    /// `starts[lane]`, rows `stride` bytes apart), channel by channel, times three.
    #[inline(always)]
    pub fn load_blocks(rgba: &[u8], stride: usize, starts: &[usize; 8]) -> [[V; 16]; 3] {
        let mut out = [[V([0.0; 8]); 16]; 3];
        for (l, &start) in starts.iter().enumerate() {
            for y in 0..4 {
                let row = &rgba[start + y * stride..][..16];
                for x in 0..4 {
                    for (c, channel) in out.iter_mut().enumerate() {
                        channel[y * 4 + x].0[l] = 3.0 * row[x * 4 + c] as f32;
                    }
                }
            }
        }
        out
    }
    #[inline(always)]
    pub fn to_i32(v: V) -> [i32; 8] {
        v.0.map(|x| x as i32)
    }
    #[inline(always)]
    pub fn add(a: V, b: V) -> V {
        map2(a, b, |x, y| x + y)
    }
    #[inline(always)]
    pub fn sub(a: V, b: V) -> V {
        map2(a, b, |x, y| x - y)
    }
    #[inline(always)]
    pub fn mul(a: V, b: V) -> V {
        map2(a, b, |x, y| x * y)
    }
    #[inline(always)]
    pub fn div(a: V, b: V) -> V {
        map2(a, b, |x, y| x / y)
    }
    #[inline(always)]
    pub fn min(a: V, b: V) -> V {
        map2(a, b, |x, y| if x < y { x } else { y })
    }
    #[inline(always)]
    pub fn max(a: V, b: V) -> V {
        map2(a, b, |x, y| if x > y { x } else { y })
    }
    #[inline(always)]
    pub fn floor(a: V) -> V {
        V(a.0.map(f32::floor))
    }
    #[inline(always)]
    pub fn lt(a: V, b: V) -> M {
        test(a, b, |x, y| x < y)
    }
    #[inline(always)]
    pub fn le(a: V, b: V) -> M {
        test(a, b, |x, y| x <= y)
    }
    #[inline(always)]
    pub fn eq(a: V, b: V) -> M {
        test(a, b, |x, y| x == y)
    }
    #[inline(always)]
    pub fn ne(a: V, b: V) -> M {
        test(a, b, |x, y| x != y)
    }
    #[inline(always)]
    pub fn and(a: M, b: M) -> M {
        M(std::array::from_fn(|l| a.0[l] & b.0[l]))
    }
    #[inline(always)]
    pub fn not(a: M) -> M {
        M(a.0.map(|b| !b))
    }
    #[inline(always)]
    pub fn or(a: M, b: M) -> M {
        M(std::array::from_fn(|l| a.0[l] | b.0[l]))
    }
    #[inline(always)]
    pub fn any(m: M) -> bool {
        m.0.iter().any(|&b| b)
    }
    #[inline(always)]
    pub fn select(m: M, a: V, b: V) -> V {
        V(std::array::from_fn(
            |l| if m.0[l] { a.0[l] } else { b.0[l] },
        ))
    }
    #[inline(always)]
    pub fn ones(m: M) -> V {
        V(m.0.map(|b| if b { 1.0 } else { 0.0 }))
    }
}

//! Refinement of encoded BC1 blocks towards the least squared error, eight blocks at a time
//! (one per vector lane): a cluster fit over the texels sorted along each block's axis,
//! least-squares endpoints rounded to the best RGB565 codes, indices re-fitted, then
//! single-code nudges of each endpoint channel. A block is never left worse than it came.
//!
//! Errors are measured against the exact palette (the thirds between the endpoints), which
//! every decoder reproduces to within one step in 255. Texel values are kept times three so
//! the palette stays in whole numbers; errors are sums of whole numbers below 2^24, exact.

use super::BC1_BLOCK_BYTES;

/// Blocks refined together, one per lane.
const L: usize = 8;
/// Weights on the first and second endpoint, in thirds, of 4-colour indices 0..4.
const W0: [f32; 4] = [3.0, 0.0, 2.0, 1.0];
const W1: [f32; 4] = [0.0, 3.0, 1.0, 2.0];
/// Largest code of the red, green and blue fields of an RGB565 colour.
const CODE_MAX: [f32; 3] = [31.0, 63.0, 31.0];
/// Rounds of cluster fit, each along the axis the last one found. A second round adds about
/// 0.015 dB on noisy ground for half as much time again (see `cargo bench --bench bc1`).
const CLUSTER_ROUNDS: usize = 1;
/// Sweeps of nudges after the cluster fit.
const NUDGE_SWEEPS: usize = 1;

/// The mean squared error per texel and channel (8-bit units) under which a block, after the
/// cluster fit, is nudged: on noisy ground a code step moves the error little against the
/// noise, and skipping the nudges there saves about a quarter of the refine for 0.03 dB, while
/// smooth ground keeps them (`cargo bench --bench bc1 -- --sweep-only`, ARCHITECTURE "BC1").
pub const NUDGE_MAX_MSE: f32 = 16.0;

/// Eight blocks' texels as plain numbers, `[channel][texel][lane]`, times three.
type TexelArrays = [[[f32; L]; 16]; 3];

/// The mean squared error per texel and channel (8-bit units) a 4-colour block must have
/// after the fast encoder for [`refine_bc1`] to refine it. Chosen by PSNR against time on the
/// bench picture, generated maps and a real map's texture (`cargo bench --bench bc1 --
/// --sweep-only`, ARCHITECTURE "BC1"): on a real map's smooth ground it saves a sixth of the
/// refine for 0.4 dB of its 6.4; any higher costs a dB for each third saved there, and on noisy
/// or generated ground no threshold saves time, as nearly every block is refined anyway.
pub const REFINE_MIN_MSE: f32 = 1.0;

/// Refines the blocks of a row-major BC1 image of the RGBA8 image `rgba` (sides multiples of
/// 4) in place: those whose error is above [`REFINE_MIN_MSE`], and every 3-colour block.
/// Single-threaded: callers parallelise over strips.
pub fn refine_bc1(rgba: &[u8], width: usize, height: usize, blocks: &mut [u8]) {
    refine_bc1_above(rgba, width, height, blocks, REFINE_MIN_MSE);
}

/// [`refine_bc1`] with another threshold: `min_mse` 0 refines every block.
pub fn refine_bc1_above(rgba: &[u8], width: usize, height: usize, blocks: &mut [u8], min_mse: f32) {
    refine_bc1_with(rgba, width, height, blocks, min_mse, NUDGE_MAX_MSE);
}

/// [`refine_bc1`] with other thresholds: `min_mse` 0 refines every block, `nudge_max_mse`
/// infinite nudges every block refined.
pub fn refine_bc1_with(
    rgba: &[u8],
    width: usize,
    height: usize,
    blocks: &mut [u8],
    min_mse: f32,
    nudge_max_mse: f32,
) {
    // the kernels' errors are sums over 16 texels and 3 channels of values times three
    let to_error = |mse: f32| mse * 16.0 * 3.0 * 9.0;
    let (min_error, nudge_max) = (to_error(min_mse), to_error(nudge_max_mse));
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above
        unsafe { with_avx2::refine_all(rgba, width, height, blocks, min_error, nudge_max) };
        return;
    }
    // SAFETY: every x86-64 CPU has SSE2
    #[cfg(target_arch = "x86_64")]
    unsafe {
        with_sse2::refine_all(rgba, width, height, blocks, min_error, nudge_max)
    };
    #[cfg(not(target_arch = "x86_64"))]
    portable::refine_all(rgba, width, height, blocks, min_error, nudge_max);
}

/// The kernels, written once against the lane operations of [`super::lanes`] and compiled
/// once per implementation of them.
macro_rules! kernels {
    ($(#[$attr:meta])*) => {
        type Texels = [[V; 16]; 3];
        /// Squared distances of every texel to every palette entry in one channel.
        type Distances = [[V; 16]; 4];

        /// Endpoint codes (whole numbers), indices (0..4) and the squared error they give.
        #[derive(Clone, Copy)]
        struct Fit {
            codes: [[V; 3]; 2],
            indices: [V; 16],
            error: V,
        }

        /// The texels and endpoint codes of blocks `ns` (one per lane), read from the image
        /// and the encoded blocks.
        $(#[$attr])*
        #[inline]
        fn gather(
            rgba: &[u8],
            width: usize,
            blocks: &[u8],
            ns: &[usize; L],
        ) -> (Texels, [[V; 3]; 2]) {
            let blocks_x = width / 4;
            let mut starts = [0usize; L];
            let mut codes = [[[0f32; L]; 3]; 2];
            for l in 0..L {
                let n = ns[l];
                let (bx, by) = (n % blocks_x, n / blocks_x);
                starts[l] = (by * 4 * width + bx * 4) * 4;
                let block = &blocks[n * BC1_BLOCK_BYTES..][..BC1_BLOCK_BYTES];
                for (q, code) in codes.iter_mut().enumerate() {
                    let c = u16::from_le_bytes([block[2 * q], block[2 * q + 1]]);
                    code[0][l] = (c >> 11) as f32;
                    code[1][l] = ((c >> 5) & 63) as f32;
                    code[2][l] = (c & 31) as f32;
                }
            }
            let px = load_blocks(rgba, width * 4, &starts);
            let mut start = [[splat(0.0); 3]; 2];
            for q in 0..2 {
                for c in 0..3 {
                    start[q][c] = load(&codes[q][c]);
                }
            }
            (px, start)
        }

        /// The blocks of one group of `list`, one per lane: a short group repeats its last
        /// block in the spare lanes.
        fn lanes_of(list: &[usize]) -> [usize; L] {
            let mut ns = [0usize; L];
            for l in 0..L {
                ns[l] = list[l.min(list.len() - 1)];
            }
            ns
        }

        $(#[$attr])*
        #[inline(never)]
        pub(super) fn refine_all(
            rgba: &[u8],
            width: usize,
            height: usize,
            blocks: &mut [u8],
            min_error: f32,
            nudge_max: f32,
        ) {
            let count = (width / 4) * (height / 4);
            let blocks = &mut blocks[..count * BC1_BLOCK_BYTES];
            let all: Vec<usize> = (0..count).collect();
            // the blocks worth refining: 3-colour ones always, 4-colour ones whose error
            // after the encoder is above `min_error`
            let chosen: Vec<usize> = if min_error <= 0.0 {
                all
            } else {
                let mut chosen = Vec::with_capacity(count);
                for group in all.chunks(L) {
                    let ns = lanes_of(group);
                    let (px, start) = gather(rgba, width, blocks, &ns);
                    let error = store(error_of(&px, &start));
                    for (l, &n) in group.iter().enumerate() {
                        let block = &blocks[n * BC1_BLOCK_BYTES..][..BC1_BLOCK_BYTES];
                        let c0 = u16::from_le_bytes([block[0], block[1]]);
                        let c1 = u16::from_le_bytes([block[2], block[3]]);
                        if c0 <= c1 || error[l] > min_error {
                            chosen.push(n);
                        }
                    }
                }
                chosen
            };
            for group in chosen.chunks(L) {
                let ns = lanes_of(group);
                let (px, start) = gather(rgba, width, blocks, &ns);
                let mut texels = [[[0f32; L]; 16]; 3];
                for c in 0..3 {
                    for i in 0..16 {
                        texels[c][i] = store(px[c][i]);
                    }
                }
                let best = refine_lanes(&px, &texels, start, nudge_max);
                let mut codes = [[[0f32; L]; 3]; 2];
                for q in 0..2 {
                    for c in 0..3 {
                        codes[q][c] = store(best.codes[q][c]);
                    }
                }
                let mut indices = [[0i32; L]; 16];
                for i in 0..16 {
                    indices[i] = to_i32(best.indices[i]);
                }
                let error = store(best.error);
                for (l, &n) in group.iter().enumerate() {
                    let block: &mut [u8; 8] = (&mut blocks[n * BC1_BLOCK_BYTES..][..BC1_BLOCK_BYTES])
                        .try_into()
                        .expect("8-byte block");
                    let c0 = u16::from_le_bytes([block[0], block[1]]);
                    let c1 = u16::from_le_bytes([block[2], block[3]]);
                    // re-fitted 4-colour indices never do worse than the encoder's; 3-colour
                    // ones might
                    if c0 > c1 || error[l] < three_colour_error(&texels, l, block) {
                        write_block(&codes, &indices, l, block);
                    }
                }
            }
        }

        $(#[$attr])*
        #[inline(never)]
        fn refine_lanes(
            px: &Texels,
            texels: &TexelArrays,
            start: [[V; 3]; 2],
            nudge_max: f32,
        ) -> Fit {
            let mut codes = start;
            let mut error = error_of(px, &codes);
            for _ in 0..CLUSTER_ROUNDS {
                let (trial, trial_error, valid) = cluster_fit(px, texels, &codes);
                let better = and(valid, lt(trial_error, error));
                for q in 0..2 {
                    for c in 0..3 {
                        codes[q][c] = select(better, trial[q][c], codes[q][c]);
                    }
                }
                error = select(better, trial_error, error);
            }
            // the nudges, for the lanes whose error is below `nudge_max` (each lane on its
            // own: a block's bytes never depend on the blocks beside it)
            let wants = lt(error, splat(nudge_max));
            if any(wants) {
                let nudged = nudge(px, codes, error);
                for q in 0..2 {
                    for c in 0..3 {
                        codes[q][c] = select(wants, nudged[q][c], codes[q][c]);
                    }
                }
            }
            fit_of(px, codes)
        }

        /// The 8-bit value of channel `c`'s codes: the code's bits repeated.
        $(#[$attr])*
        #[inline]
        fn expand(code: V, c: usize) -> V {
            if c == 1 {
                add(mul(code, splat(4.0)), floor(mul(code, splat(1.0 / 16.0))))
            } else {
                add(mul(code, splat(8.0)), floor(mul(code, splat(0.25))))
            }
        }

        /// Squared distances of one channel's texels to the palette of two 8-bit endpoints.
        $(#[$attr])*
        #[inline]
        fn channel_distances(x: &[V; 16], e0: V, e1: V) -> Distances {
            let mut d = [[splat(0.0); 16]; 4];
            for k in 0..4 {
                let p = add(mul(splat(W0[k]), e0), mul(splat(W1[k]), e1));
                for i in 0..16 {
                    let t = sub(x[i], p);
                    d[k][i] = mul(t, t);
                }
            }
            d
        }

        $(#[$attr])*
        #[inline]
        fn add_distances(a: &Distances, b: &Distances) -> Distances {
            let mut d = *a;
            for k in 0..4 {
                for i in 0..16 {
                    d[k][i] = add(a[k][i], b[k][i]);
                }
            }
            d
        }

        /// Every channel's distances for these codes.
        $(#[$attr])*
        #[inline]
        fn all_distances(px: &Texels, codes: &[[V; 3]; 2]) -> [Distances; 3] {
            [
                channel_distances(&px[0], expand(codes[0][0], 0), expand(codes[1][0], 0)),
                channel_distances(&px[1], expand(codes[0][1], 1), expand(codes[1][1], 1)),
                channel_distances(&px[2], expand(codes[0][2], 2), expand(codes[1][2], 2)),
            ]
        }

        /// The least total distance summed over the texels, for `others` plus one channel's
        /// distances to the palette of two 8-bit endpoints, without storing those distances.
        $(#[$attr])*
        #[inline]
        fn least_error_with(others: &Distances, x: &[V; 16], e0: V, e1: V) -> V {
            let p = [
                add(mul(splat(W0[0]), e0), mul(splat(W1[0]), e1)),
                add(mul(splat(W0[1]), e0), mul(splat(W1[1]), e1)),
                add(mul(splat(W0[2]), e0), mul(splat(W1[2]), e1)),
                add(mul(splat(W0[3]), e0), mul(splat(W1[3]), e1)),
            ];
            let mut error = splat(0.0);
            for i in 0..16 {
                let t = sub(x[i], p[0]);
                let mut least = add(others[0][i], mul(t, t));
                for k in 1..4 {
                    let t = sub(x[i], p[k]);
                    least = min(add(others[k][i], mul(t, t)), least);
                }
                error = add(error, least);
            }
            error
        }

        /// The 4-colour palette of these codes, `[entry][channel]`, in thirds.
        $(#[$attr])*
        #[inline]
        fn palette(codes: &[[V; 3]; 2]) -> [[V; 3]; 4] {
            let mut p = [[splat(0.0); 3]; 4];
            for c in 0..3 {
                let (e0, e1) = (expand(codes[0][c], c), expand(codes[1][c], c));
                for k in 0..4 {
                    p[k][c] = add(mul(splat(W0[k]), e0), mul(splat(W1[k]), e1));
                }
            }
            p
        }

        /// Texel `i`'s squared distance to each palette entry.
        $(#[$attr])*
        #[inline]
        fn texel_distances(px: &Texels, p: &[[V; 3]; 4], i: usize) -> [V; 4] {
            let mut d = [splat(0.0); 4];
            for k in 0..4 {
                let t0 = sub(px[0][i], p[k][0]);
                let t1 = sub(px[1][i], p[k][1]);
                let t2 = sub(px[2][i], p[k][2]);
                d[k] = add(add(mul(t0, t0), mul(t1, t1)), mul(t2, t2));
            }
            d
        }

        /// The error of these codes with the indices that suit them best.
        $(#[$attr])*
        #[inline(never)]
        fn error_of(px: &Texels, codes: &[[V; 3]; 2]) -> V {
            let p = palette(codes);
            let mut error = splat(0.0);
            for i in 0..16 {
                let d = texel_distances(px, &p, i);
                error = add(error, min(min(d[0], d[1]), min(d[2], d[3])));
            }
            error
        }

        /// The texels on each index (count and channel sums) when these codes get the indices
        /// that suit them best, and the error.
        $(#[$attr])*
        #[inline(never)]
        fn groups_of(px: &Texels, codes: &[[V; 3]; 2]) -> ([V; 4], [[V; 4]; 3], V) {
            let zero = splat(0.0);
            let p = palette(codes);
            let mut count = [zero; 4];
            let mut sums = [[zero; 4]; 3];
            let mut error = zero;
            for i in 0..16 {
                let d = texel_distances(px, &p, i);
                let least = min(min(d[0], d[1]), min(d[2], d[3]));
                error = add(error, least);
                // the first entry at the least distance, as fit_of chooses
                let mut taken = lt(least, least);
                for k in 0..4 {
                    let here = eq(d[k], least);
                    let first = and(here, not(taken));
                    taken = or(taken, here);
                    count[k] = add(count[k], ones(first));
                    for c in 0..3 {
                        sums[c][k] = add(sums[c][k], select(first, px[c][i], zero));
                    }
                }
            }
            (count, sums, error)
        }

        /// These codes with the indices that suit them best (the first nearest entry).
        $(#[$attr])*
        #[inline(never)]
        fn fit_of(px: &Texels, codes: [[V; 3]; 2]) -> Fit {
            let zero = splat(0.0);
            let p = palette(&codes);
            let mut indices = [zero; 16];
            let mut error = zero;
            for i in 0..16 {
                let d = texel_distances(px, &p, i);
                let mut least = d[0];
                for k in 1..4 {
                    let closer = lt(d[k], least);
                    least = select(closer, d[k], least);
                    indices[i] = select(closer, splat(k as f32), indices[i]);
                }
                error = add(error, least);
            }
            Fit {
                codes,
                indices,
                error,
            }
        }

        /// Moves single endpoint channels one code up or down, each with re-fitted indices,
        /// where that lowers the error; returns the codes.
        $(#[$attr])*
        #[inline(never)]
        fn nudge(px: &Texels, mut codes: [[V; 3]; 2], mut error: V) -> [[V; 3]; 2] {
            for _ in 0..NUDGE_SWEEPS {
                let mut d = all_distances(px, &codes);
                for c in 0..3 {
                    let others = add_distances(&d[(c + 1) % 3], &d[(c + 2) % 3]);
                    for q in 0..2 {
                        for delta in [-1.0f32, 1.0] {
                            let moved = add(codes[q][c], splat(delta));
                            let valid = and(le(splat(0.0), moved), le(moved, splat(CODE_MAX[c])));
                            let mut trial = codes;
                            trial[q][c] = select(valid, moved, codes[q][c]);
                            let (e0, e1) = (expand(trial[0][c], c), expand(trial[1][c], c));
                            let trial_error = least_error_with(&others, &px[c], e0, e1);
                            let better = and(valid, lt(trial_error, error));
                            codes[q][c] = select(better, trial[q][c], codes[q][c]);
                            error = select(better, trial_error, error);
                        }
                    }
                    d[c] = channel_distances(&px[c], expand(codes[0][c], c), expand(codes[1][c], c));
                }
            }
            codes
        }

        /// Least-squares endpoints for texel groups (count and channel sums per index),
        /// rounded to the RGB565 codes with the least error for those groups, channel by
        /// channel; lanes whose groups do not pin down two endpoints are left out of the mask.
        $(#[$attr])*
        #[inline(never)]
        fn rounded_endpoints(count: &[V; 4], sum: &[[V; 4]; 3]) -> ([[V; 3]; 2], M) {
            let (mut a, mut b, mut cc) = (splat(0.0), splat(0.0), splat(0.0));
            for k in 0..4 {
                a = add(a, mul(count[k], splat(W0[k] * W0[k])));
                b = add(b, mul(count[k], splat(W0[k] * W1[k])));
                cc = add(cc, mul(count[k], splat(W1[k] * W1[k])));
            }
            let det = sub(mul(a, cc), mul(b, b));
            let valid = lt(splat(0.5), det);
            let det = select(valid, det, splat(1.0));
            let mut codes = [[splat(0.0); 3]; 2];
            for c in 0..3 {
                let (mut x, mut y) = (splat(0.0), splat(0.0));
                for k in 0..4 {
                    x = add(x, mul(splat(W0[k]), sum[c][k]));
                    y = add(y, mul(splat(W1[k]), sum[c][k]));
                }
                let v0 = div(sub(mul(x, cc), mul(y, b)), det);
                let v1 = div(sub(mul(y, a), mul(x, b)), det);
                let max_code = CODE_MAX[c];
                let mut f = [v0, v1];
                for v in f.iter_mut() {
                    let q = sub(floor(mul(*v, splat(max_code / 255.0))), splat(1.0));
                    *v = min(max(q, splat(0.0)), splat(max_code - 2.0));
                }
                let [f0, f1] = f;
                // the error over the texels less its constant part for each pair of codes:
                // a e0^2 + 2 b e0 e1 + cc e1^2 - 2 x e0 - 2 y e1
                let mut best = splat(f32::INFINITY);
                let (mut pick0, mut pick1) = (f0, f1);
                for i0 in 0..3 {
                    let q0 = add(f0, splat(i0 as f32));
                    let e0 = expand(q0, c);
                    let part0 = mul(e0, sub(mul(a, e0), mul(splat(2.0), x)));
                    let slope = sub(mul(mul(splat(2.0), b), e0), mul(splat(2.0), y));
                    for i1 in 0..3 {
                        let q1 = add(f1, splat(i1 as f32));
                        let e1 = expand(q1, c);
                        let err = add(part0, mul(e1, add(mul(cc, e1), slope)));
                        let better = lt(err, best);
                        best = select(better, err, best);
                        pick0 = select(better, q0, pick0);
                        pick1 = select(better, q1, pick1);
                    }
                }
                codes[0][c] = pick0;
                codes[1][c] = pick1;
            }
            (codes, valid)
        }

        /// The direction along which the texels spread most: power iterations on their
        /// covariance, from its column with the largest variance.
        $(#[$attr])*
        #[inline(never)]
        fn principal_axis(px: &Texels) -> [V; 3] {
            let zero = splat(0.0);
            let mut mean = [zero; 3];
            for c in 0..3 {
                for i in 0..16 {
                    mean[c] = add(mean[c], px[c][i]);
                }
                mean[c] = mul(mean[c], splat(1.0 / 16.0));
            }
            // covariance entries rr, gg, bb, rg, rb, gb
            let mut cov = [zero; 6];
            for i in 0..16 {
                let d = [sub(px[0][i], mean[0]), sub(px[1][i], mean[1]), sub(px[2][i], mean[2])];
                for (n, (a, b)) in [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)].into_iter().enumerate() {
                    cov[n] = add(cov[n], mul(d[a], d[b]));
                }
            }
            let [rr, gg, bb, rg, rb, gb] = cov;
            let red = and(le(gg, rr), le(bb, rr));
            let green = and(not(red), le(bb, gg));
            let mut v = [
                select(red, rr, select(green, rg, rb)),
                select(red, rg, select(green, gg, gb)),
                select(red, rb, select(green, gb, bb)),
            ];
            for _ in 0..3 {
                // scaled by a power of two to stay in range
                let s = splat(1.0 / 1048576.0);
                v = [
                    mul(add(add(mul(rr, v[0]), mul(rg, v[1])), mul(rb, v[2])), s),
                    mul(add(add(mul(rg, v[0]), mul(gg, v[1])), mul(gb, v[2])), s),
                    mul(add(add(mul(rb, v[0]), mul(gb, v[1])), mul(bb, v[2])), s),
                ];
            }
            v
        }

        /// Cluster fit: sorts each block's texels along the axis of its codes, moves each of
        /// the three cuts that split them into runs on indices 0, 2, 3 and 1 to the least
        /// least-squares error along its line (from the cuts the codes make), and rounds that
        /// fit.
        $(#[$attr])*
        #[inline(never)]
        fn cluster_fit(px: &Texels, texels: &TexelArrays, codes: &[[V; 3]; 2]) -> ([[V; 3]; 2], V, M) {
            let zero = splat(0.0);
            let mut axis = [zero; 3];
            let (mut q0, mut q1) = (zero, zero);
            for c in 0..3 {
                let (e0, e1) = (expand(codes[0][c], c), expand(codes[1][c], c));
                axis[c] = sub(e1, e0);
                q0 = add(q0, mul(mul(splat(3.0), e0), axis[c]));
                q1 = add(q1, mul(mul(splat(3.0), e1), axis[c]));
            }
            // a flat start (both codes alike) says nothing: take the texels' principal axis
            let flat = not(or(or(ne(axis[0], zero), ne(axis[1], zero)), ne(axis[2], zero)));
            if any(flat) {
                let principal = principal_axis(px);
                for c in 0..3 {
                    axis[c] = select(flat, principal[c], axis[c]);
                }
            }
            let has_axis = or(or(ne(axis[0], zero), ne(axis[1], zero)), ne(axis[2], zero));
            let mut t = [zero; 16];
            for i in 0..16 {
                t[i] = add(add(mul(px[0][i], axis[0]), mul(px[1][i], axis[1])), mul(px[2][i], axis[2]));
            }
            // rank by counting, ties by position
            let mut rank = [zero; 16];
            for i in 0..16 {
                for j in 0..16 {
                    let before = if j < i { le(t[j], t[i]) } else { lt(t[j], t[i]) };
                    rank[i] = add(rank[i], ones(before));
                }
            }
            let mut sorted = [[[0f32; L]; 16]; 3];
            for i in 0..16 {
                let r = to_i32(rank[i]);
                for l in 0..L {
                    let at = r[l] as usize & 15;
                    for c in 0..3 {
                        sorted[c][at][l] = texels[c][i][l];
                    }
                }
            }
            let mut prefix = [[zero; 17]; 3];
            let mut prefix_lanes = [[[0f32; L]; 17]; 3];
            for c in 0..3 {
                for n in 0..16 {
                    prefix[c][n + 1] = add(prefix[c][n], load(&sorted[c][n]));
                    prefix_lanes[c][n + 1] = store(prefix[c][n + 1]);
                }
            }
            let total = [prefix[0][16], prefix[1][16], prefix[2][16]];
            let total9 = mul(
                splat(9.0),
                add(add(mul(total[0], total[0]), mul(total[1], total[1])), mul(total[2], total[2])),
            );
            // the cuts the codes make: texels below the midpoints between palette entries
            let mut cuts = [zero; 3];
            for (m, f) in [1.0f32 / 6.0, 0.5, 5.0 / 6.0].into_iter().enumerate() {
                let threshold = add(q0, mul(sub(q1, q0), splat(f)));
                for i in 0..16 {
                    cuts[m] = add(cuts[m], ones(lt(t[i], threshold)));
                }
            }
            // each prefix's dot products with itself and with the total, shared by the lines
            let mut pp = [zero; 17];
            let mut pt = [zero; 17];
            for p in 0..17 {
                let (p0, p1, p2) = (prefix[0][p], prefix[1][p], prefix[2][p]);
                pp[p] = add(add(mul(p0, p0), mul(p1, p1)), mul(p2, p2));
                pt[p] = add(add(mul(p0, total[0]), mul(p1, total[1])), mul(p2, total[2]));
            }
            let mut gain = splat(f32::NEG_INFINITY);
            // the outer cuts first, then the middle one
            for moving in [0usize, 2, 1] {
                let (v, w) = (cuts[(moving + 1) % 3], cuts[(moving + 2) % 3]);
                let (va, wa) = (to_i32(v), to_i32(w));
                let mut fixed = [zero; 3];
                for c in 0..3 {
                    let mut f = [0f32; L];
                    for l in 0..L {
                        f[l] = prefix_lanes[c][va[l] as usize][l] + prefix_lanes[c][wa[l] as usize][l];
                    }
                    fixed[c] = load(&f);
                }
                let (lo, hi) = (min(v, w), max(v, w));
                let fixed_cuts = add(v, w);
                let ff = add(add(mul(fixed[0], fixed[0]), mul(fixed[1], fixed[1])), mul(fixed[2], fixed[2]));
                let ft = add(add(mul(fixed[0], total[0]), mul(fixed[1], total[1])), mul(fixed[2], total[2]));
                let mut best_at = cuts[moving];
                for p in 0..17 {
                    // the runs' sizes for the cuts sorted i <= j <= k are i, j - i, k - j and
                    // 16 - k; the normal equations' terms, A = 5i + 3j + k, B = 2(k - i) and
                    // C = 144 - A - 2B, follow from them, and A + B = 3(i + j + k)
                    let pf = splat(p as f32);
                    let cut_sum = add(pf, fixed_cuts);
                    let i = min(pf, lo);
                    let k = max(pf, hi);
                    let j = sub(sub(cut_sum, i), k);
                    let a = add(add(mul(splat(5.0), i), mul(splat(3.0), j)), k);
                    let b = mul(splat(2.0), sub(k, i));
                    let cc = sub(sub(splat(144.0), a), add(b, b));
                    let det = sub(mul(a, cc), mul(b, b));
                    // s = fixed + prefix[p]: |s|^2 and s.T from the parts
                    let fp = add(
                        add(mul(fixed[0], prefix[0][p]), mul(fixed[1], prefix[1][p])),
                        mul(fixed[2], prefix[2][p]),
                    );
                    let ss = add(add(ff, add(fp, fp)), pp[p]);
                    let st = add(ft, pt[p]);
                    // how much the least-squares endpoints take off the error:
                    // (144 |s|^2 - 6 (A + B) s.T + 9 A |T|^2) / det
                    let g = div(
                        add(sub(mul(splat(144.0), ss), mul(mul(splat(18.0), cut_sum), st)), mul(a, total9)),
                        det,
                    );
                    let better = and(lt(splat(0.5), det), lt(gain, g));
                    gain = select(better, g, gain);
                    best_at = select(better, pf, best_at);
                }
                cuts[moving] = best_at;
            }
            let cut_lanes = [to_i32(cuts[0]), to_i32(cuts[1]), to_i32(cuts[2])];
            let mut count = [[0f32; L]; 4];
            let mut sums = [[[0f32; L]; 4]; 3];
            for l in 0..L {
                let mut c3 = [cut_lanes[0][l], cut_lanes[1][l], cut_lanes[2][l]].map(|v| v as usize);
                c3.sort_unstable();
                let [i, j, k] = c3;
                count[0][l] = i as f32;
                count[1][l] = (16 - k) as f32;
                count[2][l] = (j - i) as f32;
                count[3][l] = (k - j) as f32;
                for c in 0..3 {
                    let p = &prefix_lanes[c];
                    sums[c][0][l] = p[i][l];
                    sums[c][1][l] = p[16][l] - p[k][l];
                    sums[c][2][l] = p[j][l] - p[i][l];
                    sums[c][3][l] = p[k][l] - p[j][l];
                }
            }
            let mut count_v = [zero; 4];
            let mut sums_v = [[zero; 4]; 3];
            for q in 0..4 {
                count_v[q] = load(&count[q]);
                for c in 0..3 {
                    sums_v[c][q] = load(&sums[c][q]);
                }
            }
            let (codes, valid) = rounded_endpoints(&count_v, &sums_v);
            // one more least-squares step, from the indices the rounded endpoints choose
            let (count, sums, error) = groups_of(px, &codes);
            let (again, valid_again) = rounded_endpoints(&count, &sums);
            let again_error = error_of(px, &again);
            let better = and(valid_again, lt(again_error, error));
            let mut best = codes;
            for q in 0..2 {
                for c in 0..3 {
                    best[q][c] = select(better, again[q][c], codes[q][c]);
                }
            }
            (best, select(better, again_error, error), and(valid, has_axis))
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod with_avx2 {
    use super::super::lanes::avx2::*;
    use super::*;
    kernels!(#[target_feature(enable = "avx2")]);
}

/// Any x86-64 CPU.
#[cfg(target_arch = "x86_64")]
mod with_sse2 {
    use super::super::lanes::sse2::*;
    use super::*;
    kernels!(#[target_feature(enable = "sse2")]);
}

/// Any CPU; on x86-64 only the tests use it, as the reference.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    use super::super::lanes::portable::*;
    use super::*;
    kernels!();
}

/// The error of lane `l`'s block as a 3-colour block (endpoints, their midpoint, black).
fn three_colour_error(px: &TexelArrays, l: usize, block: &[u8; 8]) -> f32 {
    let bits = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    let a = super::expand_565(u16::from_le_bytes([block[0], block[1]]));
    let b = super::expand_565(u16::from_le_bytes([block[2], block[3]]));
    let mut error = 0.0;
    for c in 0..3 {
        let (e0, e1) = (3.0 * a[c] as f32, 3.0 * b[c] as f32);
        let palette = [e0, e1, 0.5 * (e0 + e1), 0.0];
        for i in 0..16 {
            let d = px[c][i][l] - palette[((bits >> (2 * i)) & 3) as usize];
            error += d * d;
        }
    }
    error
}

/// Packs lane `l` of the codes and indices as a 4-colour block (first endpoint the larger), or
/// as one flat colour when the endpoints coincide.
fn write_block(
    codes: &[[[f32; L]; 3]; 2],
    indices: &[[i32; L]; 16],
    l: usize,
    block: &mut [u8; 8],
) {
    let pack = |q: usize| {
        let code = |c: usize| codes[q][c][l] as u16;
        (code(0) << 11) | (code(1) << 5) | code(2)
    };
    let (mut c0, mut c1) = (pack(0), pack(1));
    let mut bits = 0u32;
    if c0 != c1 {
        let flip = if c0 < c1 {
            std::mem::swap(&mut c0, &mut c1);
            1
        } else {
            0
        };
        for (i, index) in indices.iter().enumerate() {
            bits |= ((index[l] as u32) ^ flip) << (2 * i);
        }
    }
    block[0..2].copy_from_slice(&c0.to_le_bytes());
    block[2..4].copy_from_slice(&c1.to_le_bytes());
    block[4..8].copy_from_slice(&bits.to_le_bytes());
}

#[cfg(test)]
#[path = "refine_tests.rs"]
mod tests;

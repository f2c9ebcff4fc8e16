//! f32 helpers the CPU twins share, exact to the bit.

/// `x.floor()`, bit for bit (the sign of a zero too), without the library call that
/// `f32::floor` becomes on x86-64 CPUs without SSE4.1's rounding instruction.
#[inline]
pub fn floor(x: f32) -> f32 {
    // from 2^23 on every f32 is whole, and NaN stays NaN
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        if t > x { t - 1.0 } else { t.copysign(x) }
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_is_the_library_floor_bit_for_bit() {
        let mut cases = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            1.5,
            -1.5,
            2.999_999_8,
            -2.999_999_8,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            -8_388_609.0,
            1e20,
            -1e20,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let mut r = 0x1234_5678u32;
        for _ in 0..100_000 {
            r ^= r << 13;
            r ^= r >> 17;
            r ^= r << 5;
            let v = f32::from_bits(r);
            if v.is_finite() {
                cases.push(v);
                cases.push(v.fract() + (r % 4096) as f32 - 2048.0);
            }
        }
        for v in cases {
            assert_eq!(floor(v).to_bits(), v.floor().to_bits(), "{v}");
        }
        assert!(floor(f32::NAN).is_nan());
    }
}

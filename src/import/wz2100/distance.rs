//! Exact Euclidean distance transform on a grid (Felzenszwalb and Huttenlocher's two-pass lower
//! envelope of parabolas): how far every vertex is from the coast or from a cliff's edge.

const FAR: f64 = 1e30;

/// For every cell of a `w` x `h` row-major grid, the distance in cells to the nearest cell
/// where `site` is true (0 on sites). With no sites at all, every distance is infinite.
pub fn distance_to(site: &[bool], w: usize, h: usize) -> Vec<f32> {
    assert_eq!(site.len(), w * h, "mask size");
    if !site.iter().any(|&s| s) {
        return vec![f32::INFINITY; w * h];
    }
    let mut grid: Vec<f64> = site.iter().map(|&s| if s { 0.0 } else { FAR }).collect();
    let n = w.max(h);
    let mut f = vec![0.0f64; n];
    let mut d = vec![0.0f64; n];
    let mut v = vec![0usize; n];
    let mut z = vec![0.0f64; n + 1];
    // columns
    for x in 0..w {
        for y in 0..h {
            f[y] = grid[y * w + x];
        }
        envelope(&f[..h], &mut d[..h], &mut v, &mut z);
        for y in 0..h {
            grid[y * w + x] = d[y];
        }
    }
    // rows
    for y in 0..h {
        f[..w].copy_from_slice(&grid[y * w..(y + 1) * w]);
        envelope(&f[..w], &mut d[..w], &mut v, &mut z);
        grid[y * w..(y + 1) * w].copy_from_slice(&d[..w]);
    }
    grid.into_iter()
        .map(|s| {
            if s >= FAR * 0.5 {
                f32::INFINITY
            } else {
                s.sqrt() as f32
            }
        })
        .collect()
}

/// One dimension: `d[q] = min_p (q - p)^2 + f[p]`.
fn envelope(f: &[f64], d: &mut [f64], v: &mut [usize], z: &mut [f64]) {
    let n = f.len();
    if n == 0 {
        return;
    }
    let mut k = 0usize;
    v[0] = 0;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    for q in 1..n {
        let fq = f[q] + (q * q) as f64;
        let mut s;
        loop {
            let p = v[k];
            s = (fq - (f[p] + (p * p) as f64)) / (2 * q - 2 * p) as f64;
            if s <= z[k] && k > 0 {
                k -= 1;
            } else {
                break;
            }
        }
        if s <= z[k] {
            // k == 0 and the new parabola is lower everywhere
            v[0] = q;
            z[0] = f64::NEG_INFINITY;
            z[1] = f64::INFINITY;
            continue;
        }
        k += 1;
        v[k] = q;
        z[k] = s;
        z[k + 1] = f64::INFINITY;
    }
    let mut k = 0usize;
    for (q, dq) in d.iter_mut().enumerate() {
        while z[k + 1] < q as f64 {
            k += 1;
        }
        let p = v[k];
        let dx = q as f64 - p as f64;
        *dq = dx * dx + f[p];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(site: &[bool], w: usize, h: usize) -> Vec<f32> {
        (0..w * h)
            .map(|i| {
                let (x, y) = ((i % w) as f32, (i / w) as f32);
                (0..w * h)
                    .filter(|&j| site[j])
                    .map(|j| {
                        let (sx, sy) = ((j % w) as f32, (j / w) as f32);
                        ((x - sx).powi(2) + (y - sy).powi(2)).sqrt()
                    })
                    .fold(f32::INFINITY, f32::min)
            })
            .collect()
    }

    #[test]
    fn matches_brute_force() {
        let (w, h) = (23, 17);
        let mut seed = 12345u32;
        for density in [1, 5, 40] {
            let site: Vec<bool> = (0..w * h)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (seed >> 16) % 100 < density
                })
                .collect();
            let fast = distance_to(&site, w, h);
            let slow = brute(&site, w, h);
            for (a, b) in fast.iter().zip(&slow) {
                assert!(
                    (a - b).abs() < 1e-3 || (a.is_infinite() && b.is_infinite()),
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn no_sites_is_infinite() {
        assert!(
            distance_to(&[false; 6], 3, 2)
                .iter()
                .all(|d| d.is_infinite())
        );
    }
}

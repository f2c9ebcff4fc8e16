//! The one symmetry transform every tool goes through: a map's [`SymmetryMode`] as the set of
//! rigid maps (mirrors, turns) that copy an edit (`map::symmetry::images`), and the "symmetrize" kernel that makes
//! position-dependent results (noise, erosion, stamps) exactly symmetric by copying each cell
//! outside the fundamental sector from its image inside it.

use rayon::prelude::*;

use crate::map::SymmetryMode;
pub use crate::map::symmetry::{Isometry, images, near, turn_cos_sin};

use super::kernel::{CpuPass, KernelSpec};

/// The mode codes the symmetrize kernel reads.
fn mode_code(mode: SymmetryMode) -> u32 {
    match mode {
        SymmetryMode::None => 0,
        SymmetryMode::MirrorX => 1,
        SymmetryMode::MirrorZ => 2,
        SymmetryMode::MirrorXZ => 3,
        SymmetryMode::Diagonal => 4,
        SymmetryMode::AntiDiagonal => 5,
        SymmetryMode::Rotate(2) => 6,
        SymmetryMode::Rotate(4) => 7,
        SymmetryMode::Rotate(_) => 8,
    }
}

/// The symmetrize kernel's numbers (the parameter block's `tool`): mode code, cos and sin of
/// one turn, how far past a dab's radius to copy (`reach_scale * radius + reach_add_cells`),
/// and the turn count.
pub fn symmetrize_tool_params(
    mode: SymmetryMode,
    reach_scale: f32,
    reach_add_cells: f32,
) -> [f32; 16] {
    let n = match mode {
        SymmetryMode::Rotate(n) => n,
        _ => 1,
    };
    let (c, s) = turn_cos_sin(n, 1);
    let mut t = [0.0f32; 16];
    t[0] = mode_code(mode) as f32;
    t[1] = c;
    t[2] = s;
    t[3] = reach_scale;
    t[4] = reach_add_cells;
    t[5] = n as f32;
    t
}

/// The representative of cell position `p` in the fundamental sector, in index space with
/// extent `e` (= layer size - 1). The same as `canonical` in `brush_symmetrize.wgsl`.
fn canonical(code: u32, n: u32, cos_sin: [f32; 2], e: [f32; 2], p: [f32; 2]) -> [f32; 2] {
    let c = [e[0] * 0.5, e[1] * 0.5];
    let [mut x, mut z] = p;
    match code {
        1 if x > c[0] => x = e[0] - x,
        2 if z > c[1] => z = e[1] - z,
        3 => {
            if x > c[0] {
                x = e[0] - x;
            }
            if z > c[1] {
                z = e[1] - z;
            }
        }
        4 if x > z => std::mem::swap(&mut x, &mut z),
        5 if x + z > e[0] => (x, z) = (e[0] - z, e[0] - x),
        6 if z - c[1] > 0.0 || (z - c[1] == 0.0 && x - c[0] > 0.0) => {
            x = e[0] - x;
            z = e[1] - z;
        }
        7 | 8 => {
            let (mut vx, mut vz) = (x - c[0], z - c[1]);
            if vx != 0.0 || vz != 0.0 {
                let [co, si] = cos_sin;
                for _ in 0..n {
                    // inside the sector [0, one turn): z >= 0 and left of the turn's ray
                    if vz >= 0.0 && vx * si - vz * co > 0.0 {
                        break;
                    }
                    // turn back by one step
                    let (rx, rz) = (vx * co + vz * si, vz * co - vx * si);
                    vx = rx;
                    vz = rz;
                }
            }
            x = c[0] + vx;
            z = c[1] + vz;
        }
        _ => {}
    }
    [x, z]
}

fn round_half_up(v: f32) -> f32 {
    (v + 0.5).floor()
}

/// The symmetrize kernel: each cell of the rectangle within reach of a dab and outside the
/// fundamental sector takes the value of its image inside (the nearest cell to it, exact for
/// mirrors, diagonals and quarter turns). Reads and writes the target in place: it only reads
/// cells of the sector and only writes cells outside it.
pub static SYMMETRIZE: KernelSpec = KernelSpec {
    name: "symmetrize",
    wgsl: include_str!("../../shaders/brush_symmetrize.wgsl"),
    dab_loop: false,
    entries: &["main"],
    extras: &[],
    cpu: symmetrize_cpu,
    cpu_dispatch: None,
};

/// The sector cell the symmetrize kernel copies into cell `pf` (`e` the layer's last cell
/// index on each axis, `t` its numbers), or None where it leaves the cell as it is.
fn symmetrize_source(t: &[f32; 16], e: [f32; 2], pf: [f32; 2]) -> Option<[usize; 2]> {
    let (code, co, si, n) = (t[0] as u32, t[1], t[2], t[5] as u32);
    let canon = |q: [f32; 2]| canonical(code, n, [co, si], e, q);
    let c = canon(pf);
    let q = [round_half_up(c[0]), round_half_up(c[1])];
    if q == pf || canon(q) != q {
        return None;
    }
    if q[0] < 0.0 || q[1] < 0.0 || q[0] > e[0] || q[1] > e[1] {
        return None;
    }
    Some([q[0] as usize, q[1] as usize])
}

fn symmetrize_cpu(_entry: &str, pass: &mut CpuPass) {
    let p = *pass.params;
    let t = p.tool;
    let (scale, add) = (t[3], t[4]);
    let e = [p.layer_size[0] as f32 - 1.0, p.layer_size[1] as f32 - 1.0];
    let rect = p.rect();
    // reads come only from the sector, writes only outside it: copy first, then write
    let mut writes = Vec::new();
    for z in rect.z0..rect.z1() {
        for x in rect.x0..rect.x1() {
            let pf = [x as f32, z as f32];
            let near = p.active_dabs().iter().any(|d| {
                let (dx, dz) = (pf[0] - d.center[0], pf[1] - d.center[1]);
                (dx * dx + dz * dz).sqrt() <= d.radius * scale + add
            });
            if !near {
                continue;
            }
            if let Some([qx, qz]) = symmetrize_source(&t, e, pf) {
                writes.push((x, z, pass.target.get(qx, qz)));
            }
        }
    }
    for (x, z, v) in writes {
        pass.target.set(x, z, v);
    }
}

/// The cells of a `dims` layer whose values a whole-layer symmetrize under `mode` keeps or
/// reads: a point-wise pass followed by it needs to compute only these, the rest being
/// overwritten unread.
pub fn cells_symmetrize_reads(mode: SymmetryMode, dims: (usize, usize)) -> Vec<bool> {
    let t = symmetrize_tool_params(mode, 1.0, 0.0);
    let e = [dims.0 as f32 - 1.0, dims.1 as f32 - 1.0];
    let sources: Vec<Option<[usize; 2]>> = (0..dims.0 * dims.1)
        .into_par_iter()
        .map(|c| symmetrize_source(&t, e, [(c % dims.0) as f32, (c / dims.0) as f32]))
        .collect();
    let mut kept: Vec<bool> = sources.iter().map(Option::is_none).collect();
    for [qx, qz] in sources.into_iter().flatten() {
        kept[qz * dims.0 + qx] = true;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_map_the_map_onto_itself() {
        for mode in SymmetryMode::ALL {
            let isos = images(mode, 1024.0, 1024.0);
            assert_eq!(isos.len(), mode.copies(), "{mode}");
            assert_eq!(isos[0], Isometry::IDENTITY);
            // the centre stays put under every copy
            for iso in &isos {
                let c = iso.apply([512.0, 512.0]);
                assert!((c[0] - 512.0).abs() < 1e-3 && (c[1] - 512.0).abs() < 1e-3);
            }
        }
        let mx = images(SymmetryMode::MirrorX, 2048.0, 1024.0);
        assert_eq!(mx[1].apply([100.0, 30.0]), [1948.0, 30.0]);
        assert!(mx[1].mirrors());
        let anti = images(SymmetryMode::AntiDiagonal, 1024.0, 1024.0);
        assert_eq!(anti[1].apply([0.0, 0.0]), [1024.0, 1024.0]);
        assert_eq!(anti[1].apply([1024.0, 0.0]), [1024.0, 0.0]);
        let r4 = images(SymmetryMode::Rotate(4), 1024.0, 1024.0);
        assert_eq!(r4[1].apply([1024.0, 512.0]), [512.0, 1024.0]);
    }

    #[test]
    fn every_cell_has_one_representative_in_the_sector() {
        let e = [64.0, 64.0];
        for mode in SymmetryMode::ALL {
            let t = symmetrize_tool_params(mode, 1.0, 0.0);
            let canon = |p| canonical(t[0] as u32, t[5] as u32, [t[1], t[2]], e, p);
            let isos = images(mode, 64.0, 64.0);
            for (x, z) in [(3.0, 10.0), (50.0, 7.0), (40.0, 61.0), (33.0, 19.0)] {
                let c = canon([x, z]);
                // canonical is idempotent and every copy has the same representative
                let cc = canon(c);
                assert!(
                    (cc[0] - c[0]).abs() < 1e-3 && (cc[1] - c[1]).abs() < 1e-3,
                    "{mode}"
                );
                for iso in &isos {
                    let q = iso.apply([x, z]);
                    let cq = canon(q);
                    assert!(
                        (cq[0] - c[0]).abs() < 1e-2 && (cq[1] - c[1]).abs() < 1e-2,
                        "{mode}: {:?} -> {cq:?}, {:?} -> {c:?}",
                        q,
                        [x, z]
                    );
                }
            }
        }
    }
}

//! What the tests share with the library's own unit tests: the one place a test that lacks
//! something (a GPU adapter, Spring, the fixtures, Warzone 2100's data) says it is skipped, or,
//! with `GROUNDWORK_REQUIRE_ALL=1` (CI sets it), fails, so a broken lavapipe or a missing
//! package never passes silently.

/// The variable that turns every skip into a failure.
const REQUIRE_ALL: &str = "GROUNDWORK_REQUIRE_ALL";

/// Says why a test is skipped; panics instead when [`REQUIRE_ALL`] is set to anything but 0.
pub fn skip(why: &str) {
    let required = std::env::var(REQUIRE_ALL).is_ok_and(|v| !v.is_empty() && v != "0");
    if required {
        panic!("{REQUIRE_ALL} is set, but this test lacks what it needs: {why}");
    }
    eprintln!("skipped: {why}");
}

/// A headless GPU context for a test, or `None` after [`skip`] says why there is none.
pub fn gpu() -> Option<crate::gpu::GpuContext> {
    match crate::gpu::GpuContext::headless() {
        Ok(ctx) => Some(ctx),
        Err(e) => {
            skip(&format!("no GPU adapter ({e})"));
            None
        }
    }
}

/// [`gpu`], when its adapter runs compute shaders (the tools' kernels, the bake, pathing).
pub fn gpu_with_compute() -> Option<crate::gpu::GpuContext> {
    let ctx = gpu()?;
    if !ctx.compute {
        skip(&format!("{} has no compute shaders", ctx.describe()));
        return None;
    }
    Some(ctx)
}

/// The pathing tests' map, 8 x 4 units: ground at 50 elmos, a ridge of 40 degree faces across the middle from
/// the north edge into a sea in the south, deep past its end; a start either side.
pub fn wall_map() -> crate::map::Map {
    let settings = crate::map::MapSettings {
        name: "Wall".into(),
        max_metal: 2.0,
        extractor_radius_elmos: 90.0,
        min_height_elmos: -200.0,
        max_height_elmos: 400.0,
        ..crate::map::MapSettings::default()
    };
    let mut m = crate::map::Map::new(crate::map::MapSize::new(8, 4).unwrap(), settings);
    let (w, h) = m.heights.dims();
    let tan40 = 40f32.to_radians().tan();
    for z in 0..h {
        for x in 0..w {
            let (xe, ze) = (x as f32 * 8.0, z as f32 * 8.0);
            let base = 50.0 - 150.0 * ((ze - 1300.0) / 400.0).clamp(0.0, 1.0);
            let ridge = if ze <= 1600.0 {
                (tan40 * (148.0 - (xe - 2048.0).abs())).max(0.0)
            } else {
                0.0
            };
            m.heights.set(x, z, base + ridge);
        }
    }
    m.teams = vec![
        crate::map::Team {
            start_x_elmos: 800.0,
            start_z_elmos: 600.0,
        },
        crate::map::Team {
            start_x_elmos: 3296.0,
            start_z_elmos: 600.0,
        },
    ];
    m
}

//! The real window: `groundwork --screenshot PNG --frames N` under Xvfb opens the editor on the
//! starter map, draws, saves what the window shows, and exits 0. Skips with a message when
//! `xvfb-run` or a GPU adapter is missing.

use std::process::Command;

#[test]
fn the_window_draws_the_starter_map_and_saves_a_screenshot() {
    if Command::new("xvfb-run").arg("--help").output().is_err() {
        groundwork::test_support::skip("xvfb-run not found");
        return;
    }
    if let Err(e) = groundwork::gpu::GpuContext::headless() {
        groundwork::test_support::skip(&format!("no GPU adapter ({e})"));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("window.png");
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_groundwork"))
        .arg("--screenshot")
        .arg(&shot)
        .args(["--frames", "3"])
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run the editor under xvfb-run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the editor failed: {stderr}");
    assert!(stderr.contains("opened the starter map"), "{stderr}");
    let img = image::open(&shot).expect("a screenshot").to_rgba8();
    assert_eq!(img.dimensions(), (1280, 800));
    // the 3D view in the middle shows the map: many colours, not one flat fill
    let mut colours = std::collections::HashSet::new();
    for y in (100..600).step_by(7) {
        for x in (350..950).step_by(7) {
            colours.insert(img.get_pixel(x, y).0);
        }
    }
    assert!(
        colours.len() > 500,
        "only {} colours in the view",
        colours.len()
    );
}

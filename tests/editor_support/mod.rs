//! Shared by the whole-editor tests: the wgpu setup egui_kittest runs the app on (our own device
//! request, so compute is there when the adapter has it), the app in a 1280x800 harness, and
//! stepping it until something has happened.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use groundwork::ui::{EditorApp, EditorOptions};

/// Our device request on the default adapter; `None`, with the skip message printed, when
/// there is no GPU adapter.
pub fn gpu_setup() -> Option<egui_wgpu::WgpuSetup> {
    if let Err(e) = groundwork::gpu::GpuContext::headless() {
        groundwork::test_support::skip(&format!("no GPU adapter ({e})"));
        return None;
    }
    let mut setup = match egui_kittest::wgpu::default_wgpu_setup() {
        egui_wgpu::WgpuSetup::CreateNew(s) => s,
        other => return Some(other),
    };
    setup.device_descriptor = Arc::new(groundwork::gpu::context::device_descriptor);
    Some(egui_wgpu::WgpuSetup::CreateNew(setup))
}

/// The editor in a 1280x800 window, started with `options`; its own files (the recent list)
/// go to a fresh folder unless `options` names one, never to the tester's config folder.
pub fn editor(
    mut options: EditorOptions,
    setup: egui_wgpu::WgpuSetup,
) -> Harness<'static, EditorApp> {
    if options.config_dir.is_none() {
        options.config_dir = Some(tempfile::tempdir().unwrap().keep());
    }
    let outcome = Arc::new(Mutex::new(None));
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .wgpu_setup(setup)
        .build_eframe(move |cc| EditorApp::new(cc, options, outcome.clone()))
}

/// Steps the app until `done` holds (the jobs run on worker threads), then once more.
pub fn step_until(
    harness: &mut Harness<'_, EditorApp>,
    what: &str,
    done: impl Fn(&mut Harness<'_, EditorApp>) -> bool,
) {
    let t0 = Instant::now();
    while !done(harness) {
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "{what} never happened"
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    harness.step();
}

/// Presses the left button at `path[0]`, drags through the rest and lets go, two frames a step.
pub fn drag(harness: &mut Harness<'_, EditorApp>, path: &[egui::Pos2]) {
    harness.event(egui::Event::PointerMoved(path[0]));
    harness.step();
    harness.event(egui::Event::PointerButton {
        pos: path[0],
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    for &p in path {
        harness.event(egui::Event::PointerMoved(p));
        harness.step();
        harness.step();
    }
    harness.event(egui::Event::PointerButton {
        pos: *path.last().unwrap(),
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    harness.step();
}

//! File > Import in the real editor (egui_kittest on the wgpu path): a Warzone 2100 archive
//! lists its maps, picking one imports it as a new unsaved map, and Save As writes the project
//! folder with the import report; a `.SC2Map` given on the command line imports directly.
//! Skips with a message when there is no GPU adapter or the data is absent.

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use groundwork::formats::import_report::IMPORT_REPORT_FILE;
use groundwork::formats::wz2100::{self, MapStatus};
use groundwork::ui::{EditorApp, EditorOptions};

const MP_WZ: &str = "/usr/share/games/warzone2100/mp.wz";

fn setup() -> Option<egui_wgpu::WgpuSetup> {
    if let Err(e) = groundwork::gpu::GpuContext::headless() {
        eprintln!("skipped: no GPU adapter ({e})");
        return None;
    }
    let mut setup = match egui_kittest::wgpu::default_wgpu_setup() {
        egui_wgpu::WgpuSetup::CreateNew(s) => s,
        other => return Some(other),
    };
    setup.device_descriptor = Arc::new(groundwork::gpu::context::device_descriptor);
    Some(egui_wgpu::WgpuSetup::CreateNew(setup))
}

/// Keeps the recent-files list of the person running the tests out of it.
fn private_config() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY: nextest runs each test in its own process, before any other thread reads it.
    unsafe { std::env::set_var("XDG_CONFIG_HOME", dir.path()) };
    dir
}

fn editor(open: &Path, setup: egui_wgpu::WgpuSetup) -> Harness<'static, EditorApp> {
    let outcome = Arc::new(Mutex::new(None));
    let options = EditorOptions {
        open: Some(open.to_path_buf()),
        ..EditorOptions::default()
    };
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .wgpu_setup(setup)
        .build_eframe(move |cc| EditorApp::new(cc, options, outcome.clone()))
}

fn step_until(harness: &mut Harness<'_, EditorApp>, what: &str, done: impl Fn(&EditorApp) -> bool) {
    let t0 = Instant::now();
    while !done(harness.state()) {
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "{what} never happened"
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    harness.step();
}

#[test]
fn a_warzone_archive_lists_its_maps_and_the_picked_one_imports_and_saves() {
    let mp = PathBuf::from(MP_WZ);
    if !mp.is_file() {
        eprintln!("skipped: warzone2100-data not found");
        return;
    }
    let Some(setup) = setup() else { return };
    let config = private_config();
    let maps = wz2100::list_maps(&mp).unwrap();
    let importable: Vec<_> = maps
        .iter()
        .filter(|m| m.status == MapStatus::Importable)
        .collect();
    let pick = importable
        .iter()
        .position(|m| m.name == "2c-urbanchasm")
        .expect("mp.wz holds 2c-urbanchasm");

    let mut harness = editor(&mp, setup);
    // the archive holds many maps: nothing opens until one is picked
    let t0 = Instant::now();
    while harness
        .query_by_label("Import a Warzone 2100 map")
        .is_none()
    {
        assert!(t0.elapsed() < Duration::from_secs(120), "no map chooser");
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(harness.state().document().is_none());
    harness.step();
    harness.snapshot_options(
        "ui_import_wz2100_chooser",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
    harness
        .query_by_label("Sk-UrbanChasm")
        .expect("the chooser lists the map");
    let buttons: Vec<_> = harness.query_all_by_label("Import").collect();
    assert_eq!(
        buttons.len(),
        importable.len(),
        "one button per importable map"
    );
    buttons[pick].click();
    step_until(&mut harness, "the import", |app| app.is_ready());

    let doc = harness.state().document().unwrap();
    assert!(doc.dirty, "an imported map is not saved yet");
    assert!(doc.project_dir.is_none());
    assert_eq!(doc.map.teams.len(), 2);
    assert!(
        doc.map.metal.data().iter().any(|&m| m > 0),
        "oil became metal"
    );
    let report = doc
        .import_report
        .clone()
        .expect("the import report is kept");
    assert!(report.contains("Warzone"), "{report}");
    let title = harness.state().title();
    assert!(title.starts_with('*'), "{title}");
    let recent = std::fs::read_to_string(config.path().join("groundwork").join("recent.txt"));
    assert!(
        recent.as_deref().unwrap_or("").contains("mp.wz"),
        "the archive is in the recent list: {recent:?}"
    );

    // Save writes the project folder and the report beside it
    let out = tempfile::tempdir().unwrap();
    let project = out.path().join("UrbanChasm");
    let ctx = harness.ctx.clone();
    harness.state_mut().save_to(project.clone(), &ctx);
    step_until(&mut harness, "the save", |app| {
        app.is_ready() && !app.document().unwrap().dirty
    });
    let saved = std::fs::read_to_string(project.join(IMPORT_REPORT_FILE)).unwrap();
    assert_eq!(saved, report);
    let back = groundwork::formats::load_project(&project).unwrap();
    assert_eq!(
        back.map.teams,
        harness.state().document().unwrap().map.teams
    );
}

#[test]
fn a_starcraft_map_on_the_command_line_imports() {
    let Some(path) = common::fixture("sc2/Simple64.SC2Map") else {
        eprintln!("skipped: fixtures not found");
        return;
    };
    let Some(setup) = setup() else { return };
    let _config = private_config();
    let mut harness = editor(&path, setup);
    step_until(&mut harness, "the import", |app| app.is_ready());
    let doc = harness.state().document().unwrap();
    assert!(doc.dirty);
    assert!(
        doc.import_report
            .as_deref()
            .unwrap()
            .contains("StarCraft II")
    );
    assert!(doc.map.teams.len() >= 2);
    assert!(harness.state().title().contains("Simple64"));
}

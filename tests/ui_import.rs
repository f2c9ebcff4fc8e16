//! File > Import in the real editor (egui_kittest on the wgpu path): a Warzone 2100 archive
//! lists its maps, picking one imports it as a new unsaved map, and Save As writes the project
//! folder with the import report; a `.SC2Map` given on the command line imports directly; the
//! menu shows both importers with their options, and the options reach the importer.
//! Skips with a message when there is no GPU adapter or the data is absent.

mod common;
mod editor_support;

use std::path::{Path, PathBuf};

use editor_support::{editor, gpu_setup, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use groundwork::formats::import_report::IMPORT_REPORT_FILE;
use groundwork::formats::wz2100::{self, MapStatus};
use groundwork::ui::{EditorApp, EditorOptions};

const MP_WZ: &str = "/usr/share/games/warzone2100/mp.wz";

/// The editor started on `open`, as `groundwork PATH` starts it, keeping its recent-files list
/// in `config` (not the list of the person running the tests).
fn editor_on(
    open: &Path,
    config: &Path,
    setup: egui_wgpu::WgpuSetup,
) -> Harness<'static, EditorApp> {
    let options = EditorOptions {
        open: Some(open.to_path_buf()),
        config_dir: Some(config.to_path_buf()),
        ..EditorOptions::default()
    };
    editor(options, setup)
}

#[test]
fn a_warzone_archive_lists_its_maps_and_the_picked_one_imports_and_saves() {
    let mp = PathBuf::from(MP_WZ);
    if !mp.is_file() {
        groundwork::test_support::skip("warzone2100-data not found");
        return;
    }
    let Some(setup) = gpu_setup() else { return };
    let config = tempfile::tempdir().unwrap();
    let maps = wz2100::list_maps(&mp).unwrap();
    let importable: Vec<_> = maps
        .iter()
        .filter(|m| m.status == MapStatus::Importable)
        .collect();
    let pick = importable
        .iter()
        .position(|m| m.name == "2c-urbanchasm")
        .expect("mp.wz holds 2c-urbanchasm");

    let mut harness = editor_on(&mp, config.path(), setup);
    // the archive holds many maps: nothing opens until one is picked
    step_until(&mut harness, "the map chooser", |h| {
        h.query_by_label("Import a Warzone 2100 map").is_some()
    });
    assert!(harness.state().document().is_none());
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
    step_until(&mut harness, "the import", |h| h.state().is_ready());

    let doc = harness.state().document().unwrap();
    assert!(doc.dirty(), "an imported map is not saved yet");
    assert!(doc.project_dir.is_none());
    assert_eq!(doc.map().teams.len(), 2);
    assert!(
        doc.map().metal.data().iter().any(|&m| m > 0),
        "oil became metal"
    );
    let report = doc
        .import_report
        .clone()
        .expect("the import report is kept");
    assert!(report.contains("Warzone"), "{report}");
    let title = harness.state().title();
    assert!(title.starts_with('*'), "{title}");
    let recent = std::fs::read_to_string(config.path().join("recent.txt"));
    assert!(
        recent.as_deref().unwrap_or("").contains("mp.wz"),
        "the archive is in the recent list: {recent:?}"
    );

    // Save writes the project folder and the report beside it
    let out = tempfile::tempdir().unwrap();
    let project = out.path().join("UrbanChasm");
    let ctx = harness.ctx.clone();
    harness.state_mut().save_to(project.clone(), &ctx);
    step_until(&mut harness, "the save", |h| {
        h.state().is_ready() && !h.state().document().unwrap().dirty()
    });
    let saved = std::fs::read_to_string(project.join(IMPORT_REPORT_FILE)).unwrap();
    assert_eq!(saved, report);
    let back = groundwork::formats::load_project(&project).unwrap();
    assert_eq!(
        back.map.teams,
        harness.state().document().unwrap().map().teams
    );
}

#[test]
fn a_starcraft_map_on_the_command_line_imports() {
    let Some(path) = common::fixture("sc2/Simple64.SC2Map") else {
        groundwork::test_support::skip("fixtures not found");
        return;
    };
    let Some(setup) = gpu_setup() else { return };
    let config = tempfile::tempdir().unwrap();
    let mut harness = editor_on(&path, config.path(), setup);
    step_until(&mut harness, "the import", |h| h.state().is_ready());
    let doc = harness.state().document().unwrap();
    assert!(doc.dirty());
    assert!(
        doc.import_report
            .as_deref()
            .unwrap()
            .contains("StarCraft II")
    );
    assert!(doc.map().teams.len() >= 2);
    assert!(harness.state().title().contains("Simple64"));

    // File > Import: both importers, each with its options
    harness.get_by_label("File").click();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label("Import").hover();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label("StarCraft II map (.SC2Map)…");
    // each importer's installed sources (Warzone 2100: the game's own maps)
    harness.get_by_label("Warzone 2100: the game's skirmish maps…");
    for option in ["per cell", "per tile", "deep pit", "Minimap.tga"] {
        assert!(
            harness.query_all_by_label(option).next().is_some(),
            "the menu has no {option}"
        );
    }
    // the 3D view behind the menu differs a little between runs; the menu is what is checked
    harness.mask(egui::Rect::from_min_max(
        egui::pos2(600.0, 30.0),
        egui::pos2(1280.0, 800.0),
    ));
    harness.snapshot_options(
        "ui_import_menu",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(4000),
    );
}

#[test]
fn the_import_options_reach_the_importer() {
    use groundwork::ui::jobs::{self, Outcome, Source};
    let Some(path) = common::fixture("sc2/Simple64.SC2Map") else {
        groundwork::test_support::skip("fixtures not found");
        return;
    };
    let ctx = egui::Context::default();
    let width_elmos = |cell_elmos: u32| {
        let mut settings = groundwork::import::Settings::default();
        settings.set_number("cell_elmos", cell_elmos as f32);
        let source = Source::Import {
            importer: "sc2",
            path: path.clone(),
            map: None,
            settings,
        };
        let job = jobs::open(source, None, ctx.clone());
        let t0 = std::time::Instant::now();
        loop {
            match job.poll() {
                Some(Outcome::Opened { map, report, .. }) => {
                    assert!(report.is_some());
                    return map.size.width_elmos();
                }
                Some(_) => panic!("the import failed"),
                None => {
                    assert!(t0.elapsed().as_secs() < 120, "the import never finished");
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
            }
        }
    };
    let (small, default) = (width_elmos(16), width_elmos(32));
    assert!(
        small < default,
        "16 elmos per cell gave {small}, 32 gave {default}"
    );
}

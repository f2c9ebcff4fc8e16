//! The editor's dialogs and panel layout through egui_kittest, with the mouse and keyboard: the
//! in-app file browser taking over when the system's dialog cannot open (Save as, the Export
//! dialog's Browse), the Export dialog's typed folder and its line saying where exports go,
//! the properties panel keeping its width when a section opens, and the metal spots table
//! showing its rows. The whole-editor test skips with a message when there is no GPU adapter.

mod editor_support;

use editor_support::{editor, gpu_setup, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use groundwork::edit::procedural::relief_map;
use groundwork::install::{Game, MapsFolder};
use groundwork::map::{Map, MapSettings, MapSize, TerrainType};
use groundwork::ui::EditorOptions;
use groundwork::ui::export_dialog::ExportDialog;
use groundwork::ui::metal_panel::MetalPanel;
use groundwork::ui::properties_panel::PropertiesPanel;

fn small_map() -> Map {
    relief_map(MapSize::new(2, 2).unwrap(), 3, "Dialog test")
}

/// Clicks the text field at `field` with the mouse, types `text` over what it holds, and
/// presses Enter.
fn type_into<S>(harness: &mut Harness<'_, S>, field: egui::Rect, text: &str) {
    let at = field.center();
    harness.event(egui::Event::PointerMoved(at));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    harness.step();
    harness.step();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.step();
    harness.event(egui::Event::Text(text.to_string()));
    harness.step();
    harness.key_press(egui::Key::Enter);
    harness.step();
    harness.step();
}

#[test]
fn the_export_dialog_says_which_folder_and_takes_a_typed_one() {
    let maps = tempfile::tempdir().unwrap();
    let nowhere = maps.path().join("no such game/maps");
    let mut dialog = ExportDialog::new(
        vec![MapsFolder {
            game: Game::BeyondAllReason,
            path: nowhere.clone(),
            found: false,
        }],
        Default::default(),
        None,
    );
    dialog.open = true;
    let map = small_map();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(800.0, 700.0))
        .build_ui_state(
            |ui, d: &mut ExportDialog| {
                d.ui(ui.ctx(), &map, 0);
            },
            dialog,
        );
    harness.run();
    assert!(
        harness
            .query_by_label_contains("No game found here")
            .is_some()
    );

    // a path that is not a folder is refused in one line, and nothing is chosen
    let field = |h: &Harness<'_, ExportDialog>| {
        h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Folder:")
            .rect()
    };
    let missing = maps.path().join("missing");
    let at = field(&harness);
    type_into(&mut harness, at, &missing.display().to_string());
    harness.run();
    assert_eq!(harness.state().dir, None);
    assert!(
        harness
            .query_by_label(&format!("{} is not a folder", missing.display()))
            .is_some()
    );

    // a folder typed and Enter: chosen, and the dialog says which
    let at = field(&harness);
    type_into(&mut harness, at, &maps.path().display().to_string());
    harness.run();
    assert_eq!(harness.state().dir.as_deref(), Some(maps.path()));
    assert!(
        harness
            .query_by_label_contains("No game found here")
            .is_none()
    );
    assert!(harness.query_by_label_contains("is not a folder").is_none());
    assert!(
        harness
            .query_by_label(&format!(
                "Exporting into {}, the folder you chose.",
                maps.path().display()
            ))
            .is_some()
    );
}

#[test]
fn opening_terrain_types_keeps_the_panel_and_the_view_their_width() {
    let mut settings = MapSettings::default();
    for (i, name) in [(1u8, "A rather long terrain type name"), (2, "Sand")] {
        settings.terrain_types.insert(i, TerrainType::named(name));
    }
    // the editor's layout: properties on the right, the map view in the middle
    let state = (
        PropertiesPanel::default(),
        settings,
        egui::Rect::NOTHING,
        egui::Rect::NOTHING,
    );
    type State = (PropertiesPanel, MapSettings, egui::Rect, egui::Rect);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .build_ui_state(
            |ui, (panel, settings, right, view): &mut State| {
                *right = egui::Panel::right("properties")
                    .default_size(330.0)
                    .show(ui, |ui| {
                        if let Some(new) = panel.ui(ui, settings, 2, &[], &[]).settings {
                            *settings = new;
                        }
                    })
                    .response
                    .rect;
                egui::CentralPanel::no_frame().show(ui, |ui| *view = ui.max_rect());
            },
            state,
        );
    harness.run();
    let (right, view) = (harness.state().2, harness.state().3);
    assert!(
        right.width() < 400.0,
        "the panel starts at {}",
        right.width()
    );
    harness.get_by_label("Terrain types").click();
    harness.run();
    assert!(
        harness.query_all_by_label("Type 1").next().is_some(),
        "the section did not open"
    );
    let (right_open, view_open) = (harness.state().2, harness.state().3);
    assert_eq!(right_open.width(), right.width(), "the panel widened");
    assert_eq!(view_open, view, "the map view moved or shrank");
}

/// A 4 x 4 map with `n` metal spots on a grid, 400 elmos apart.
fn map_with_spots(n: usize) -> Map {
    let mut map = relief_map(MapSize::new(4, 4).unwrap(), 3, "Spots");
    map.metal.data_mut().fill(0);
    for k in 0..n {
        let (x, z) = (
            (k % 5) as f32 * 400.0 + 200.0,
            (k / 5) as f32 * 400.0 + 200.0,
        );
        groundwork::map::metal::paint_dome(&mut map.metal, x, z, 48.0, 255.0);
    }
    map
}

#[test]
fn the_metal_spots_table_shows_many_rows() {
    if let Err(e) = groundwork::gpu::GpuContext::headless() {
        groundwork::test_support::skip(&format!("no GPU adapter to draw the table with ({e})"));
        return;
    }
    let map = map_with_spots(14);
    let spots = map.metal_report().spots;
    assert_eq!(spots.len(), 14);
    let tenth = format!("{:.0}, {:.0}", spots[9].x_elmos, spots[9].z_elmos);
    let mut panel = MetalPanel::default();
    // as in the left panel: the tools above, the table below, in the panel's scroll area
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 800.0))
        .wgpu()
        .build_ui(|ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.allocate_space(egui::vec2(200.0, 300.0));
                ui.heading("Metal spots");
                panel.ui(ui, &map, 1);
            });
        });
    harness.run();
    let rect = harness.get_by_label(&tenth).rect();
    assert!(
        rect.max.y < 800.0,
        "the 10th spot is off the window: {rect:?}"
    );
    // drawn, not clipped away: its text's pixels differ from the row's background
    let image = harness.render().expect("a picture");
    let ppp = image.width() as f32 / 280.0;
    let (mut lo, mut hi) = (255u8, 0u8);
    for y in (rect.min.y * ppp) as u32..(rect.max.y * ppp) as u32 {
        for x in (rect.min.x * ppp) as u32..(rect.max.x * ppp) as u32 {
            let p = image.get_pixel(x, y).0;
            let grey = ((p[0] as u32 + p[1] as u32 + p[2] as u32) / 3) as u8;
            (lo, hi) = (lo.min(grey), hi.max(grey));
        }
    }
    assert!(
        hi - lo > 60,
        "the 10th spot's row is not drawn (its pixels range {lo}..{hi})"
    );
}

/// Where the in-app browser's text field `label` is.
fn browser_field(harness: &Harness<'_, groundwork::ui::EditorApp>, label: &str) -> egui::Rect {
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, label)
        .rect()
}

#[test]
fn without_a_system_dialog_save_as_and_browse_use_the_in_app_browser() {
    let Some(setup) = gpu_setup() else { return };
    let root = tempfile::tempdir().unwrap();
    let maps = root.path().join("maps");
    std::fs::create_dir_all(&maps).unwrap();
    let options = EditorOptions {
        maps_folder: Some(root.path().join("elsewhere")),
        in_app_file_dialogs: true,
        ..EditorOptions::default()
    };
    let mut harness = editor(options, setup);
    step_until(&mut harness, "the starter map opening", |h| {
        h.state().is_ready()
    });

    // Ctrl+Shift+S: the in-app browser, its path field typed into, then the file name
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::S,
    );
    for _ in 0..3 {
        harness.step();
    }
    assert!(
        harness.query_by_label("Save as a project folder").is_some(),
        "no in-app browser"
    );
    let at = browser_field(&harness, "Look in:");
    type_into(&mut harness, at, &root.path().display().to_string());
    let stem = harness
        .state()
        .document()
        .unwrap()
        .map()
        .settings
        .file_stem();
    assert!(
        harness.query_by_label("maps/").is_some(),
        "the browser does not show the folder typed"
    );
    let name = harness.get_by_role_and_label(egui::accesskit::Role::TextInput, "Name:");
    assert_eq!(
        name.value().as_deref(),
        Some(stem.as_str()),
        "the name offered"
    );
    let at = name.rect();
    type_into(&mut harness, at, "my map");
    let saved = root.path().join("my map");
    step_until(&mut harness, "the save", |h| {
        h.state().document().unwrap().project_dir.as_deref() == Some(saved.as_path())
    });
    assert!(saved.join("map.toml").is_file());
    assert!(
        harness.query_by_label("Save as a project folder").is_none(),
        "the browser closed"
    );

    // File > Export, Browse…: a folder clicked in the in-app browser, then Open
    harness.get_by_label("File").click();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label_contains("Export to the game").click();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label("Browse…").click();
    for _ in 0..3 {
        harness.step();
    }
    let at = browser_field(&harness, "Look in:");
    type_into(&mut harness, at, &root.path().display().to_string());
    harness.get_by_label("maps/").click();
    harness.step();
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "Open")
        .click();
    for _ in 0..3 {
        harness.step();
    }
    assert!(
        harness
            .query_by_label(&format!(
                "Exporting into {}, the folder you chose.",
                maps.display()
            ))
            .is_some(),
        "the export folder was not taken from the browser"
    );
}

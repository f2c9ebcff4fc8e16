//! The whole editor in egui_kittest, on the real wgpu path (our device request, the GPU view
//! drawn into the window): it opens on the starter map, draws it, and undoes a stroke.
//! Skips with a message when there is no GPU adapter.

mod common;
mod editor_support;

use editor_support::{drag, editor, gpu_setup, step_until};
use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, SnapshotOptions};
use groundwork::ui::{EditorApp, EditorOptions};

fn wait_until_ready(harness: &mut Harness<'_, EditorApp>) {
    step_until(harness, "the starter map opening", |h| h.state().is_ready());
    for _ in 0..2 {
        harness.step();
    }
}

#[test]
fn the_editor_opens_on_the_starter_map() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    assert!(harness.state().is_ready());
    let title = harness.state().title();
    assert!(title.contains("Groundwork Starter"), "{title}");
    // the log's times and the status bar's frame rate change between runs
    let mask = |x0: f32, y0: f32, x1: f32, y1: f32| {
        egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
    };
    harness.mask(mask(0.0, 690.0, 1280.0, 770.0));
    harness.mask(mask(700.0, 770.0, 1280.0, 800.0));
    harness.snapshot_options(
        "ui_editor_starter",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
}

#[test]
fn a_brush_stroke_in_the_window_undoes_and_redoes() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    let before = harness.state().document().unwrap().map().heights.clone();

    // drag across the middle of the view with the left button: the raise/lower brush
    let path = [
        egui::pos2(560.0, 330.0),
        egui::pos2(620.0, 360.0),
        egui::pos2(680.0, 390.0),
    ];
    harness.event(egui::Event::PointerMoved(path[0]));
    harness.step();
    harness.event(egui::Event::PointerButton {
        pos: path[0],
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    for p in path {
        harness.event(egui::Event::PointerMoved(p));
        harness.step();
        harness.step();
    }
    // while the button is down the document still holds the old heights
    assert_eq!(harness.state().document().unwrap().map().heights, before);
    harness.event(egui::Event::PointerButton {
        pos: path[2],
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    harness.step();
    let doc = harness.state().document().unwrap();
    let after = doc.map().heights.clone();
    assert_eq!(
        doc.session.history().undo_len(),
        1,
        "one stroke, one undo step"
    );
    assert!(doc.dirty());
    let raised = after
        .data()
        .iter()
        .zip(before.data())
        .filter(|(a, b)| *a > *b)
        .count();
    assert!(raised > 100, "the stroke raised only {raised} vertices");

    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    assert_eq!(harness.state().document().unwrap().map().heights, before);
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    harness.step();
    assert_eq!(harness.state().document().unwrap().map().heights, after);
}

/// How bumpy the heights are around (x, z) elmos: the mean squared Laplacian (a slope is not
/// bumpy; smoothing flattens curvature).
fn roughness(map: &groundwork::map::Map, x: f32, z: f32, r_elmos: f32) -> f32 {
    let (cx, cz, r) = ((x / 8.0) as i64, (z / 8.0) as i64, (r_elmos / 8.0) as i64);
    let (w, h) = map.heights.dims();
    let (mut sum, mut n) = (0.0f32, 0);
    for vz in (cz - r).max(1)..(cz + r).min(h as i64 - 1) {
        for vx in (cx - r).max(1)..(cx + r).min(w as i64 - 1) {
            let (vx, vz) = (vx as usize, vz as usize);
            let g = |x: usize, z: usize| map.heights.get(x, z);
            let lap =
                g(vx - 1, vz) + g(vx + 1, vz) + g(vx, vz - 1) + g(vx, vz + 1) - 4.0 * g(vx, vz);
            sum += lap * lap;
            n += 1;
        }
    }
    sum / n.max(1) as f32
}

#[test]
fn smooth_and_ramp_with_the_mouse() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);

    // roughen a patch with noise, then smooth it: both picked in the panel, used by mouse
    let rub = [
        egui::pos2(520.0, 420.0),
        egui::pos2(560.0, 440.0),
        egui::pos2(520.0, 460.0),
        egui::pos2(560.0, 480.0),
        egui::pos2(520.0, 440.0),
    ];
    let at = harness
        .state()
        .ground_under(rub[0])
        .expect("the ground under the cursor");
    harness.get_by_label("Noise").click();
    harness.step();
    {
        let s = harness.state_mut().tools().current_settings_mut().unwrap();
        s.set_number("scale_elmos", 48.0);
        s.brush.strength = 1.0;
    }
    drag(&mut harness, &rub);
    let noisy = harness.state().document().unwrap().map().clone();
    harness.get_by_label("Smooth").click();
    harness.step();
    harness
        .state_mut()
        .tools()
        .current_settings_mut()
        .unwrap()
        .brush
        .strength = 1.0;
    drag(&mut harness, &rub);
    let doc = harness.state().document().unwrap();
    assert_eq!(
        doc.session.history().undo_len(),
        2,
        "two strokes, two undo steps"
    );
    let (r0, r1) = (
        roughness(&noisy, at.x, at.z, 100.0),
        roughness(doc.map(), at.x, at.z, 100.0),
    );
    eprintln!("bumpiness under the strokes: noise {r0:.3}, then smooth {r1:.3}");
    assert!(
        r1 < r0 * 0.5,
        "smoothing left the ground as bumpy: {r0} -> {r1}"
    );

    // ramp: from A to B, the ground between runs from A's height to B's
    harness.get_by_label("Ramp").click();
    harness.step();
    let (pa, pb) = (egui::pos2(450.0, 300.0), egui::pos2(700.0, 420.0));
    let a = harness.state().ground_under(pa).unwrap();
    let b = harness.state().ground_under(pb).unwrap();
    let steps: Vec<egui::Pos2> = (0..=6).map(|i| pa + (pb - pa) * (i as f32 / 6.0)).collect();
    drag(&mut harness, &steps);
    let doc = harness.state().document().unwrap();
    assert_eq!(doc.session.history().undo_len(), 3);
    let map = doc.map();
    for t in [0.25f32, 0.5, 0.75] {
        let (x, z) = (a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t);
        let want = a.y + (b.y - a.y) * t;
        let got = map.height_at(x, z);
        assert!(
            (got - want).abs() < 2.0,
            "at {t} of the ramp the ground is {got}, the ramp says {want}"
        );
    }
}

#[test]
fn a_metal_dome_placed_and_dragged_with_the_mouse_undoes_step_by_step() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    harness.get_by_label("Metal dome").click();
    harness.step();
    let spots =
        |h: &Harness<'_, EditorApp>| h.state().document().unwrap().map().metal_report().spots;
    let start = spots(&harness).len();
    let at = egui::pos2(600.0, 420.0);
    let ground = harness.state().ground_under(at).unwrap();
    drag(&mut harness, &[at]);
    let placed = spots(&harness);
    assert_eq!(placed.len(), start + 1, "a click places one dome");
    let dome = placed
        .iter()
        .min_by(|a, b| {
            let d =
                |s: &groundwork::map::BarSpot| (s.x_elmos - ground.x).hypot(s.z_elmos - ground.z);
            d(a).total_cmp(&d(b))
        })
        .unwrap()
        .clone();
    assert!((dome.x_elmos - ground.x).abs() < 16.0 && (dome.z_elmos - ground.z).abs() < 16.0);
    // drag it
    let to = egui::pos2(680.0, 440.0);
    let target = harness.state().ground_under(to).unwrap();
    drag(&mut harness, &[at, egui::pos2(640.0, 430.0), to]);
    let moved = spots(&harness);
    assert_eq!(moved.len(), start + 1, "dragging moves, it does not add");
    assert!(
        moved
            .iter()
            .any(|s| (s.x_elmos - target.x).abs() < 24.0 && (s.z_elmos - target.z).abs() < 24.0),
        "no spot where it was dragged to ({target:?}): {moved:?}"
    );
    assert!(
        !moved
            .iter()
            .any(|s| s.x_elmos == dome.x_elmos && s.z_elmos == dome.z_elmos)
    );
    assert_eq!(
        harness
            .state()
            .document()
            .unwrap()
            .session
            .history()
            .undo_len(),
        2
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    assert_eq!(spots(&harness), placed, "the drag undone");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    assert_eq!(spots(&harness).len(), start, "the dome undone");
}

#[test]
fn the_metal_overlay_labels_each_spot_with_its_income() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    harness.get_by_label("Metal").click();
    harness.step();
    harness.step();
    let report = harness.state().document().unwrap().map().metal_report();
    assert!(!report.spots.is_empty(), "the starter map has metal spots");
    // the panel lists them with their T1 income (the view's labels are in the snapshot)
    assert!(harness.query_by_label_contains("Metal spots").is_some());
    let income = format!("{:.2}", report.spots[0].t1_income);
    assert!(
        harness.query_all_by_label(&income).count() >= 1,
        "no spot with {income} metal/s in the panel"
    );
    // closer, so the domes under the labels show
    harness.event(egui::Event::PointerMoved(egui::pos2(640.0, 340.0)));
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 250.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    for _ in 0..30 {
        harness.step();
    }
    harness.mask(egui::Rect::from_min_max(
        egui::pos2(0.0, 690.0),
        egui::pos2(1280.0, 800.0),
    ));
    harness.snapshot_options(
        "ui_metal_spots",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
}

#[test]
fn export_from_the_file_menu_shows_progress_and_the_result() {
    let Some(setup) = gpu_setup() else { return };
    let maps = tempfile::tempdir().unwrap();
    let options = EditorOptions {
        maps_folder: Some(maps.path().to_path_buf()),
        ..EditorOptions::default()
    };
    let mut harness = editor(options, setup);
    wait_until_ready(&mut harness);
    harness.get_by_label("File").click();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label_contains("Export to the game").click();
    for _ in 0..3 {
        harness.step();
    }
    // the starter map is clean, so Export is offered; the file is named as BAR names maps
    assert!(harness.query_by_label_contains("nothing to fix").is_some());
    assert!(
        harness
            .query_by_label("File: groundwork_starter_1.0.sd7")
            .is_some()
    );
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "Export")
        .click();
    let saw_progress = std::cell::Cell::new(false);
    step_until(&mut harness, "the export finishing", |h| {
        saw_progress.set(saw_progress.get() | h.query_by_label("Cancel").is_some());
        h.query_all_by_label_contains("read back and checked")
            .next()
            .is_some()
    });
    assert!(saw_progress.get(), "no progress bar with Cancel was shown");
    let written = maps.path().join("groundwork_starter_1.0.sd7");
    assert!(written.is_file());
    assert!(harness.query_by_label_contains("Rescan").is_some());
    // exporting again: the name is taken, Export waits for a choice, the next version is offered
    harness.step();
    assert!(
        harness
            .query_all_by_label_contains("is already there")
            .next()
            .is_some()
    );
    harness.get_by_label("Use version 1.1").click();
    harness.step();
    harness.step();
    assert_eq!(
        harness.state().document().unwrap().map().settings.version,
        "1.1"
    );
    assert!(
        harness
            .query_by_label("File: groundwork_starter_1.1.sd7")
            .is_some()
    );
}

#[test]
fn live_export_keeps_the_sdd_in_step_after_a_stroke() {
    let Some(setup) = gpu_setup() else { return };
    let maps = tempfile::tempdir().unwrap();
    let options = EditorOptions {
        maps_folder: Some(maps.path().to_path_buf()),
        ..EditorOptions::default()
    };
    let mut harness = editor(options, setup);
    wait_until_ready(&mut harness);
    harness.get_by_label("File").click();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label_contains("Export to the game").click();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label_contains("Live: keep the .sdd").click();
    let sdd = maps.path().join("groundwork_starter_1.0.sdd");
    let smf_in = |dir: &std::path::Path| {
        std::fs::read_dir(dir.join("maps"))
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "smf"))
    };
    step_until(&mut harness, "the first live export", |h| {
        smf_in(&sdd).is_some() && !h.state().export_running()
    });
    let smf = smf_in(&sdd).unwrap();
    assert!(
        harness
            .query_by_label("File: groundwork_starter_1.0.sdd")
            .is_some()
    );
    let first = std::fs::read(&smf).unwrap();
    let mapinfo = sdd.join("mapinfo.lua");
    let mapinfo_written = std::fs::metadata(&mapinfo).unwrap().modified().unwrap();
    // close the dialog: live export goes on without it
    harness.key_press(egui::Key::Escape);
    harness.get_by_label("Raise").click();
    harness.step();
    let at = egui::pos2(600.0, 420.0);
    drag(&mut harness, &[at, at + egui::vec2(40.0, 10.0)]);
    step_until(&mut harness, "the live export after the stroke", |h| {
        !h.state().export_running() && std::fs::read(&smf).unwrap() != first
    });
    // the .sdd holds the stroked ground, and the unchanged mapinfo.lua was not rewritten
    let back = groundwork::formats::read_map(&sdd).unwrap().map;
    assert_eq!(
        back.height_words(),
        harness.state().document().unwrap().map().height_words()
    );
    assert_eq!(
        std::fs::metadata(&mapinfo).unwrap().modified().unwrap(),
        mapinfo_written
    );
}

/// A stand-in for the engine: records its arguments, its environment and the start script
/// (its last argument), prints the minimal game's "loaded" line, and exits.
fn fake_engine(dir: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("fake-spring");
    std::fs::write(
        &path,
        "#!/bin/sh\nrec=\"$(dirname \"$0\")\"\nprintf '%s\\n' \"$@\" > \"$rec/args.txt\"\n\
         for last; do :; done\ncp \"$last\" \"$rec/script.txt\"\n\
         env | grep '^SPRING_' > \"$rec/env.txt\"\n\
         echo '[t=00:00:01.500000][f=-000001] GROUNDWORK loaded 0'\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn try_in_game_starts_the_engine_on_the_map_at_the_first_start() {
    let Some(setup) = gpu_setup() else { return };
    let rec = tempfile::tempdir().unwrap();
    let options = EditorOptions {
        engine: Some(fake_engine(rec.path())),
        ..EditorOptions::default()
    };
    let mut harness = editor(options, setup);
    wait_until_ready(&mut harness);
    harness.get_by_label("Try in game  (F5)").click();
    harness.step();
    assert!(harness.state().engine_busy());
    step_until(&mut harness, "the engine closing", |h| {
        !h.state().engine_busy()
    });
    let lines = harness.state().log_lines();
    assert!(
        lines.iter().any(|l| l.contains("loaded in 1.5 s")),
        "{lines:#?}"
    );
    // the settings, then the start script last, as Spring takes them
    let args: Vec<String> = std::fs::read_to_string(rec.path().join("args.txt"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert!(args.iter().any(|a| a == "--config"), "{args:?}");
    assert!(args.last().unwrap().ends_with(".txt"), "{args:?}");
    let script = std::fs::read_to_string(rec.path().join("script.txt")).unwrap();
    let map = harness.state().document().unwrap().map().clone();
    assert!(
        script.contains(&format!("MapName={};", map.settings.versioned_name())),
        "{script}"
    );
    let start = &map.teams[0];
    assert!(
        script.contains(&format!(
            "StartPosX={}; StartPosZ={};",
            start.start_x_elmos.round(),
            start.start_z_elmos.round()
        )),
        "{script}"
    );
    // the engine's data folder holds the map compiled from the document
    let env = std::fs::read_to_string(rec.path().join("env.txt")).unwrap();
    assert!(env.contains("SPRING_DATADIR="), "{env}");
}

/// Clicks Engine view, waits for the engine, and checks that its picture is shown.
fn open_engine_view(harness: &mut Harness<'_, EditorApp>) {
    wait_until_ready(harness);
    harness.get_by_label("Engine view").click();
    harness.step();
    step_until(harness, "the engine's picture", |h| {
        !h.state().engine_busy()
    });
    let lines = harness.state().log_lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the engine's picture is shown")),
        "{lines:#?}"
    );
}

#[test]
fn engine_view_shows_the_engines_picture_from_the_views_camera() {
    use std::os::unix::fs::PermissionsExt;
    let Some(setup) = gpu_setup() else { return };
    let rec = tempfile::tempdir().unwrap();
    // the "engine" takes its screenshot by copying this picture, 64 x 32 texels
    let picture = rec.path().join("picture.png");
    image::RgbaImage::from_pixel(64, 32, image::Rgba([200, 40, 40, 255]))
        .save(&picture)
        .unwrap();
    let fake = rec.path().join("fake-spring");
    std::fs::write(
        &fake,
        "#!/bin/sh\nrec=\"$(dirname \"$0\")\"\n\
         for d in $(echo \"$SPRING_DATADIR\" | tr ':' ' '); do \
         cp \"$d\"/games/*/LuaRules/groundwork_try.lua \"$rec/\" 2>/dev/null; done\n\
         mkdir -p \"$SPRING_WRITEDIR/screenshots\"\n\
         cp \"$rec/picture.png\" \"$SPRING_WRITEDIR/screenshots/screen00000.png\"\n\
         echo '[t=00:00:02.000000][f=0000090] GROUNDWORK loaded 0'\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let options = EditorOptions {
        engine: Some(fake),
        ..EditorOptions::default()
    };
    let mut harness = editor(options, setup);
    open_engine_view(&mut harness);
    assert!(
        harness
            .query_by_label_contains("as the game draws it")
            .is_some()
    );
    // the engine was told the view's camera
    let told = std::fs::read_to_string(rec.path().join("groundwork_try.lua")).unwrap();
    assert!(told.contains("camera = {px = "), "{told}");
}

#[test]
fn engine_view_with_the_real_engine_shows_its_picture() {
    use std::os::unix::fs::PermissionsExt;
    let spring = std::path::Path::new("/usr/games/spring");
    let xvfb = std::path::Path::new("/usr/bin/xvfb-run");
    if !spring.is_file() || !xvfb.is_file() {
        groundwork::test_support::skip(
            "spring not found (/usr/games/spring and xvfb-run: apt-get install -y spring xvfb)",
        );
        return;
    }
    let Some(setup) = gpu_setup() else { return };
    // the windowed engine, on a display of its own
    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("spring-on-xvfb");
    std::fs::write(
        &wrapper,
        format!(
            // Debian's base content is found beside the engine's binary, and this wrapper is
            // not there
            "#!/bin/sh\nunset WAYLAND_DISPLAY\nexport SPRING_DATADIR=\"/usr/share/games/spring:$SPRING_DATADIR\"\n\
             exec {} -a -s '-screen 0 1280x800x24' {} \"$@\"\n",
            xvfb.display(),
            spring.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let options = EditorOptions {
        engine: Some(wrapper),
        ..EditorOptions::default()
    };
    let mut harness = editor(options, setup);
    open_engine_view(&mut harness);
    for _ in 0..3 {
        harness.step();
    }
    if let Some(keep) = std::env::var_os("GROUNDWORK_KEEP_PICTURES") {
        let image = harness.render().expect("a picture");
        image
            .save(std::path::Path::new(&keep).join("editor-engine-view.png"))
            .unwrap();
    }
}

#[test]
fn dragging_the_sun_gizmo_moves_the_sun() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    let before = harness
        .state()
        .document()
        .unwrap()
        .map()
        .settings
        .lighting
        .sun_dir_or_default();
    let gizmo = harness.get_by_label("Sun").rect();
    // from the middle (straight up) to the east edge (low in the east)
    let from = gizmo.center();
    let to = egui::pos2(gizmo.right() - 8.0, gizmo.center().y);
    harness.event(egui::Event::PointerMoved(from));
    harness.step();
    harness.event(egui::Event::PointerButton {
        pos: from,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    for k in 1..=6 {
        harness.event(egui::Event::PointerMoved(
            from + (to - from) * (k as f32 / 6.0),
        ));
        harness.step();
    }
    harness.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    let sun = harness
        .state()
        .document()
        .unwrap()
        .map()
        .settings
        .lighting
        .sun_dir_or_default();
    assert_ne!(sun, before);
    // east and low: x dominant, a little up, no north-south
    assert!(
        sun[0] > 0.8 && sun[1] > 0.0 && sun[1] < 0.4 && sun[2].abs() < 0.1,
        "{sun:?}"
    );
}

#[test]
fn an_edit_autosaved_on_losing_focus_is_offered_back_after_a_crash() {
    let Some(setup) = gpu_setup() else { return };
    let config = tempfile::tempdir().unwrap();
    // a small map, so the autosave is quick
    let project = config.path().join("Small");
    let small = groundwork::edit::procedural::relief_map(
        groundwork::map::MapSize::new(4, 4).unwrap(),
        5,
        "Small",
    );
    groundwork::formats::save_project(&small, &project).unwrap();
    let options = EditorOptions {
        config_dir: Some(config.path().to_path_buf()),
        open: Some(project.clone()),
        ..EditorOptions::default()
    };
    let mut harness = editor(options.clone(), setup.clone());
    wait_until_ready(&mut harness);
    // a stroke, then the window loses focus
    let (from, to) = (egui::pos2(560.0, 330.0), egui::pos2(680.0, 390.0));
    let path: Vec<egui::Pos2> = (0..6)
        .map(|k| from + (to - from) * (k as f32 / 5.0))
        .collect();
    drag(&mut harness, &path);
    let edited = harness.state().document().unwrap().map().height_words();
    assert!(harness.state().document().unwrap().dirty());
    harness.event(egui::Event::WindowFocused(false));
    let autosaved = config.path().join("autosave").join("map.toml");
    step_until(&mut harness, "the autosave", |h| {
        h.query_all_by_label_contains("autosaved").next().is_some()
    });
    assert!(autosaved.is_file());
    // the editor dies without closing (no clean exit); the next start opens the starter map
    std::mem::forget(harness);

    let options = EditorOptions {
        open: None,
        ..options
    };
    let mut harness = editor(options, setup);
    wait_until_ready(&mut harness);
    assert!(
        harness.query_by_label("Recover").is_some(),
        "no recovery offered"
    );
    harness.get_by_label("Recover").click();
    harness.step();
    step_until(&mut harness, "the recovered map", |h| {
        h.state().is_ready()
            && h.state()
                .document()
                .is_some_and(|d| d.map().height_words() == edited)
    });
    let doc = harness.state().document().unwrap();
    assert!(doc.dirty(), "the recovered map is unsaved");
    assert_eq!(
        doc.project_dir.as_deref(),
        Some(project.as_path()),
        "and goes back where it came from"
    );
}

#[test]
fn the_layers_tab_adds_a_layer_and_a_slider_drag_is_one_undo_step() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    let layers =
        |h: &Harness<'_, EditorApp>| h.state().document().unwrap().map().texture_layers.clone();
    let steps =
        |h: &Harness<'_, EditorApp>| h.state().document().unwrap().session.history().undo_len();
    assert!(layers(&harness).is_empty(), "the starter map has no layers");
    harness.get_by_label("Textures").click();
    harness.step();
    harness.get_by_label("Add layer").click();
    harness.step();
    harness.step();
    let added = layers(&harness);
    assert_eq!(added.len(), 1);
    assert_eq!(added[0].name, "rock", "the default new layer is rock");
    assert_eq!(steps(&harness), 1, "adding is one undo step");
    // a layer with no rules covers the map: the view shows rock at once
    for _ in 0..3 {
        harness.step();
    }
    let mask = |x0: f32, y0: f32, x1: f32, y1: f32| {
        egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
    };
    harness.mask(mask(0.0, 690.0, 1280.0, 770.0));
    harness.mask(mask(700.0, 770.0, 1280.0, 800.0));
    harness.snapshot_options(
        "ui_editor_layers",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
    // then rock on the slopes only
    harness.get_by_label("Slope").click();
    for _ in 0..4 {
        harness.step();
    }
    assert!(layers(&harness)[0].rules.slope_deg.is_some());
    assert_eq!(steps(&harness), 2, "a rule ticked is one undo step");
    // the new layer is selected: drag its opacity slider to the left, over several frames
    let slider = harness
        .get_by_role_and_label(egui::accesskit::Role::Slider, "Opacity")
        .rect();
    let from = egui::pos2(slider.right() - 4.0, slider.center().y);
    drag(
        &mut harness,
        &[
            from,
            from - egui::vec2(20.0, 0.0),
            from - egui::vec2(40.0, 0.0),
            from - egui::vec2(60.0, 0.0),
        ],
    );
    harness.step();
    let dragged = layers(&harness);
    assert!(
        dragged[0].opacity < 0.9,
        "the drag lowered the opacity: {}",
        dragged[0].opacity
    );
    assert_eq!(steps(&harness), 3, "the whole drag is one undo step");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    assert_eq!(
        layers(&harness)[0].opacity,
        1.0,
        "undo takes the whole drag back"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    assert!(
        layers(&harness)[0].rules.slope_deg.is_none(),
        "then the rule"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    assert!(layers(&harness).is_empty(), "and then the layer");
}

#[test]
fn file_new_makes_a_map_of_the_chosen_size_players_and_symmetry() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    harness.get_by_label("File").click();
    for _ in 0..3 {
        step3(&mut harness);
    }
    harness.get_by_label("New map…").click();
    step3(&mut harness);
    // 3 players cannot share a mirror's two halves: refused with the reason, the dialog stays
    harness.get_by_label("Map symmetry").click();
    step3(&mut harness);
    harness.get_by_label("Mirror X (left | right)").click();
    step3(&mut harness);
    let players = harness.get_by_role_and_label(egui::accesskit::Role::SpinButton, "Players");
    players.click();
    step3(&mut harness);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_by_role_and_label(egui::accesskit::Role::SpinButton, "Players")
        .type_text("3");
    harness.key_press(egui::Key::Enter);
    step3(&mut harness);
    harness.get_by_label("Create").click();
    step3(&mut harness);
    assert!(
        harness.query_by_label_contains("multiple of 2").is_some(),
        "the refusal says why"
    );
    assert!(harness.state().title().contains("Groundwork Starter"));
    // 8x8, four players, both mirrors
    harness.get_by_label("Map symmetry").click();
    step3(&mut harness);
    harness.get_by_label("Mirror X and Z (4 copies)").click();
    step3(&mut harness);
    harness
        .get_by_role_and_label(egui::accesskit::Role::SpinButton, "Players")
        .click();
    step3(&mut harness);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_by_role_and_label(egui::accesskit::Role::SpinButton, "Players")
        .type_text("4");
    harness.key_press(egui::Key::Enter);
    step3(&mut harness);
    harness.get_by_label("Size").click();
    step3(&mut harness);
    harness.get_by_label("8x8").click();
    step3(&mut harness);
    let mask = |x0: f32, y0: f32, x1: f32, y1: f32| {
        egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
    };
    harness.mask(mask(0.0, 690.0, 1280.0, 770.0));
    harness.mask(mask(700.0, 770.0, 1280.0, 800.0));
    harness.snapshot_options(
        "ui_new_map",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
    harness.get_by_label("Create").click();
    step_until(&mut harness, "the new map opening", |h| {
        h.state().title().contains("New map")
    });
    let doc = harness.state().document().unwrap();
    let map = doc.map();
    assert_eq!(map.size.to_string(), "8x8");
    assert_eq!(map.teams.len(), 4);
    assert_eq!(map.symmetry, groundwork::map::SymmetryMode::MirrorXZ);
    assert!(doc.dirty(), "a new map is not saved yet");
    assert!(map.generator.is_none() && map.metal.data().iter().all(|&b| b == 0));

    // again, from the generator's hills: its ground, metal for every start, and the recipe
    harness.get_by_label("File").click();
    for _ in 0..3 {
        step3(&mut harness);
    }
    harness.get_by_label("New map…").click();
    step3(&mut harness);
    harness.get_by_label("Generator").click();
    step3(&mut harness);
    harness.get_by_label("hills").click();
    step3(&mut harness);
    harness.get_by_label("Create").click();
    step3(&mut harness);
    // the first new map is not saved: the editor asks first
    harness.get_by_label("Discard changes").click();
    step_until(&mut harness, "the generated map opening", |h| {
        h.state()
            .document()
            .is_some_and(|d| d.map().generator.is_some())
    });
    let doc = harness.state().document().unwrap();
    let map = doc.map();
    assert_eq!(map.teams.len(), 4);
    let (lo, hi) = map.heights.min_max();
    assert!(hi - lo > 30.0, "generated ground: {lo}..{hi}");
    let spots = groundwork::edit::generate::placement::team_spots(map, 2000.0);
    assert!(spots.iter().all(|&n| n >= 6), "{spots:?}");
}

fn step3(harness: &mut Harness<'_, EditorApp>) {
    for _ in 0..3 {
        harness.step();
    }
}

#[test]
fn map_resize_and_generate_are_one_undo_step_each() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    let size = |h: &Harness<'_, EditorApp>| h.state().document().unwrap().map().size.to_string();
    assert_eq!(size(&harness), "8x8");
    let features = harness.state().document().unwrap().map().features.len();

    // Map > Resize: 12x12 about the centre; the view's GPU copy is made at the new size
    harness.get_all_by_label("Map").next().unwrap().click();
    step3(&mut harness);
    harness.get_by_label("Resize…").click();
    step3(&mut harness);
    harness.get_by_label("New size").click();
    step3(&mut harness);
    harness.get_by_label("12x12").click();
    step3(&mut harness);
    harness.get_by_label("Resize").click();
    step3(&mut harness);
    assert_eq!(size(&harness), "12x12");
    assert_eq!(harness.state().scene_heights_dims(), Some((769, 769)));
    let map = harness.state().document().unwrap().map();
    assert_eq!(
        map.features.len(),
        features,
        "nothing falls off a bigger map"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step3(&mut harness);
    assert_eq!(size(&harness), "8x8");
    assert_eq!(harness.state().scene_heights_dims(), Some((513, 513)));

    // Map > Generate: a preset, its preview, then Apply as one step
    harness.get_all_by_label("Map").next().unwrap().click();
    step3(&mut harness);
    harness.get_by_label("Generate…").click();
    step3(&mut harness);
    harness.get_by_label("Start from").click();
    step3(&mut harness);
    harness.get_by_label("islands").click();
    step3(&mut harness);
    step_until(&mut harness, "the preview", |h| {
        let w = h.state().generate_window();
        !w.previewing()
            && w.previewed().is_some_and(|(r, _)| {
                r.base_preset() == Some(groundwork::map::recipe::Preset::Islands)
            })
    });
    step3(&mut harness);
    let mask = |x0: f32, y0: f32, x1: f32, y1: f32| {
        egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
    };
    harness.mask(mask(0.0, 690.0, 1280.0, 770.0));
    harness.mask(mask(700.0, 770.0, 1280.0, 800.0));
    harness.snapshot_options(
        "ui_generate_window",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(4000),
    );
    let heights = harness.state().document().unwrap().map().heights.clone();
    harness.get_by_label("Apply to the map").click();
    step3(&mut harness);
    let map = harness.state().document().unwrap().map();
    assert!(map.generator.is_some());
    assert_ne!(map.heights, heights);
    let spots = groundwork::edit::generate::placement::team_spots(map, 2000.0);
    assert!(spots.iter().all(|&n| n >= 6), "{spots:?}");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step3(&mut harness);
    let map = harness.state().document().unwrap().map();
    assert!(map.generator.is_none());
    assert_eq!(map.heights, heights);
}

#[test]
fn the_pathing_tab_overlays_a_class_floods_a_clicked_start_and_tables_fairness() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    harness
        .state_mut()
        .pathing()
        .set_table(groundwork::analyze::move_class::MoveClassTable {
            classes: groundwork::analyze::move_class::bar_classes(),
            source: "built-in (BAR's classes, 2026)".into(),
        });
    harness.get_by_label("Pathing").click();
    step3(&mut harness);
    assert!(
        !harness.state().pathing_overlay_on(),
        "the overlay starts off"
    );
    harness.get_by_label("Overlay for").click();
    step3(&mut harness);
    harness.get_by_label("TANK2 (tank, 27°)").click();
    step3(&mut harness);
    assert!(harness.state().pathing_overlay_on());
    // the fairness table comes from a worker thread
    step_until(&mut harness, "the fairness analysis", |h| {
        let rev = h.state().document().unwrap().session.revision();
        h.state_mut()
            .pathing()
            .analysis()
            .is_some_and(|(r, _)| r == rev)
    });
    let teams = harness.state().document().unwrap().map().teams.len();
    assert!(teams >= 2, "the starter map has starts");
    assert!(harness.query_by_label("metal ≤1000").is_some());
    assert!(
        harness
            .query_by_label_contains("Team figures by BOT3")
            .is_some()
    );
    // a click on start 2 in the view floods its region and makes no stroke
    let before = harness.state().document().unwrap().map().heights.clone();
    let at = harness
        .state()
        .start_on_screen(1)
        .expect("start 2 is in view");
    harness.event(egui::Event::PointerMoved(at));
    harness.step();
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    step3(&mut harness);
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    step3(&mut harness);
    assert_eq!(harness.state_mut().pathing().flood_team, Some(1));
    assert!(harness.state().flood_shown());
    assert_eq!(
        harness.state().document().unwrap().map().heights,
        before,
        "the click was the start's, not a stroke"
    );
    let mask = |x0: f32, y0: f32, x1: f32, y1: f32| {
        egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
    };
    harness.mask(mask(0.0, 690.0, 1280.0, 770.0));
    harness.mask(mask(700.0, 770.0, 1280.0, 800.0));
    harness.snapshot_options(
        "ui_editor_pathing",
        &SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(2000),
    );
    // off again: no overlay, no flood
    harness.get_by_label("Overlay for").click();
    step3(&mut harness);
    harness.get_by_label("off").click();
    step3(&mut harness);
    assert!(!harness.state().pathing_overlay_on());
    assert!(!harness.state().flood_shown());
}

#[test]
fn dragging_a_start_moves_it_and_its_symmetric_partner_in_one_undo_step() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    let starts = |h: &Harness<'_, EditorApp>| h.state().document().unwrap().map().teams.clone();
    let before = starts(&harness);
    assert!(before.len() >= 2);
    // the starter map's two starts face each other across the centre: turn the half-turn
    // symmetry on, and they are partners
    harness.get_by_label("Symmetry").click();
    step3(&mut harness);
    harness.get_by_label("Rotate 2 about the centre").click();
    step3(&mut harness);
    let map = harness.state().document().unwrap().map().clone();
    assert_eq!(map.symmetry, groundwork::map::SymmetryMode::Rotate(2));
    let partners = groundwork::edit::starts::partners(&map, 0);
    assert_eq!(
        partners.len(),
        1,
        "the starter map's two starts are partners"
    );
    let from = harness
        .state()
        .start_on_screen(0)
        .expect("start 1 is in view");
    let to = from + egui::vec2(60.0, 30.0);
    drag(
        &mut harness,
        &[
            from,
            from + egui::vec2(20.0, 10.0),
            from + egui::vec2(40.0, 20.0),
            to,
        ],
    );
    step3(&mut harness);
    let after = starts(&harness);
    let moved = |a: &groundwork::map::Team, b: &groundwork::map::Team| {
        (a.start_x_elmos - b.start_x_elmos).abs() + (a.start_z_elmos - b.start_z_elmos).abs() > 8.0
    };
    assert!(moved(&after[0], &before[0]), "start 1 moved: {after:?}");
    // it landed where the pointer let go: the ground under `to`
    let ground = harness
        .state()
        .ground_under(to)
        .expect("ground under the pointer");
    assert!(
        (after[0].start_x_elmos - ground.x).abs() < 40.0
            && (after[0].start_z_elmos - ground.z).abs() < 40.0,
        "{:?} vs {ground:?}",
        after[0]
    );
    for (u, g) in &partners {
        let want = g.apply([after[0].start_x_elmos, after[0].start_z_elmos]);
        assert!(
            (after[*u].start_x_elmos - want[0]).abs() < 1e-2
                && (after[*u].start_z_elmos - want[1]).abs() < 1e-2,
            "partner {u} follows by symmetry: {:?} vs {want:?}",
            after[*u]
        );
    }
    let heights = harness.state().document().unwrap().map().heights.clone();
    assert_eq!(
        heights, map.heights,
        "the drag was the start's, not a stroke"
    );
    assert_eq!(
        harness
            .state()
            .document()
            .unwrap()
            .session
            .history()
            .undo_len(),
        1,
        "one undo step"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step3(&mut harness);
    assert_eq!(starts(&harness), before, "undo puts both back");
}

#[test]
fn a_start_dragged_and_features_scattered_with_symmetry_undo_step_by_step() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    let map = |h: &Harness<'_, EditorApp>| h.state().document().unwrap().map().clone();
    harness.get_by_label("Symmetry").click();
    step3(&mut harness);
    harness.get_by_label("Rotate 2 about the centre").click();
    step3(&mut harness);
    let before = map(&harness);
    // a start dragged: it and its partner move, one step
    let from = harness.state().start_on_screen(0).expect("start 1 in view");
    let to = from + egui::vec2(40.0, 20.0);
    drag(&mut harness, &[from, from + egui::vec2(20.0, 10.0), to]);
    step3(&mut harness);
    let moved = map(&harness);
    assert_ne!(moved.teams, before.teams, "the start moved");
    // the scatter tool, with one name from the palette
    harness.get_by_label("Scatter features").click();
    step3(&mut harness);
    harness.get_by_label("geovent").click();
    step3(&mut harness);
    let settings = &harness.state_mut().tools().features;
    assert_eq!(settings.scatter_names, vec![("geovent".to_string(), 1.0)]);
    // paint across the middle of the view
    let path: Vec<egui::Pos2> = (0..6)
        .map(|k| egui::pos2(520.0 + 30.0 * k as f32, 380.0 + 6.0 * k as f32))
        .collect();
    drag(&mut harness, &path);
    step3(&mut harness);
    let scattered = map(&harness);
    let added: Vec<_> = scattered
        .features
        .iter()
        .filter(|f| f.name == "geovent")
        .cloned()
        .collect();
    assert!(
        added.len() >= 4,
        "the drag scattered vents: {}",
        added.len()
    );
    let (w, d) = (scattered.size.width_elmos(), scattered.size.depth_elmos());
    for f in &added {
        // each has its half-turn image, heading turned by 180 degrees
        assert!(
            added
                .iter()
                .any(|o| (o.x_elmos - (w - f.x_elmos)).abs() < 0.01
                    && (o.z_elmos - (d - f.z_elmos)).abs() < 0.01
                    && ((o.rotation_deg - f.rotation_deg - 180.0).rem_euclid(360.0) < 0.01
                        || (o.rotation_deg - f.rotation_deg - 180.0).rem_euclid(360.0) > 359.99)),
            "{f:?} has no partner"
        );
    }
    assert_eq!(
        scattered.heights, before.heights,
        "the drag scattered, it did not sculpt"
    );
    let undo_len =
        |h: &Harness<'_, EditorApp>| h.state().document().unwrap().session.history().undo_len();
    assert_eq!(
        undo_len(&harness),
        2,
        "the start and the whole scatter drag"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step3(&mut harness);
    assert_eq!(
        map(&harness).features,
        before.features,
        "undo takes the scatter back"
    );
    assert_eq!(map(&harness).teams, moved.teams, "and leaves the start");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step3(&mut harness);
    assert_eq!(map(&harness).teams, before.teams, "then the start");
    // the view's context menu adds a start where it was opened, as one undo step
    let at = egui::pos2(620.0, 300.0);
    harness.event(egui::Event::PointerMoved(at));
    harness.step();
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        harness.step();
    }
    step3(&mut harness);
    harness.get_by_label("Add a start here").click();
    step3(&mut harness);
    let added = map(&harness);
    assert_eq!(
        added.teams.len(),
        before.teams.len() + 1,
        "a start was added"
    );
    let ground = harness
        .state()
        .ground_under(at)
        .expect("ground under the click");
    let t = added.teams.last().unwrap();
    assert!(
        (t.start_x_elmos - ground.x).abs() < 40.0 && (t.start_z_elmos - ground.z).abs() < 40.0,
        "{t:?} vs {ground:?}"
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step3(&mut harness);
    assert_eq!(map(&harness).teams, before.teams, "undo removes it");
}

//! The editor keeping what it shows in step with the document, through egui_kittest: water
//! presets replace the whole water table, the preset list starts afresh on another map, the
//! "heights outside the range" offer follows undo, the minimap follows strokes, and scrolling
//! zooms toward the ground under the cursor. The whole-editor tests skip with a message when
//! there is no GPU adapter.

mod editor_support;

use editor_support::{drag, editor, gpu_setup, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use groundwork::edit::{Session, ToolSettings};
use groundwork::gpu::ViewOptions;
use groundwork::map::water::builtin_presets;
use groundwork::map::{MapSettings, MapSize};
use groundwork::ui::minimap_panel::MinimapPanel;
use groundwork::ui::properties_panel::PropertiesPanel;
use groundwork::ui::{EditorApp, EditorOptions};

fn wait_until_ready(harness: &mut Harness<'_, EditorApp>) {
    step_until(harness, "the map opening", |h| h.state().is_ready());
    for _ in 0..2 {
        harness.step();
    }
}

/// Picks `name` in the water preset list (through AccessKit: the panel may have the list
/// scrolled out of its view).
fn pick_preset<S>(harness: &mut Harness<'_, S>, name: &str) {
    harness.get_by_label("Preset").click_accesskit();
    harness.step();
    harness.step();
    harness.get_by_label(name).click_accesskit();
    harness.step();
    harness.step();
}

#[test]
fn a_water_preset_resets_the_keys_it_does_not_name() {
    let state = (PropertiesPanel::default(), MapSettings::default());
    let mut harness = Harness::builder()
        .with_size(egui::vec2(420.0, 1400.0))
        .build_ui_state(
            |ui, (panel, settings): &mut (PropertiesPanel, MapSettings)| {
                if let Some(s) = panel.ui(ui, settings, 2, &[], &[]).settings {
                    *settings = s;
                }
            },
            state,
        );
    harness.run();
    harness.get_by_label("Water").click();
    harness.run();
    pick_preset(&mut harness, "Lava-like");
    harness.get_by_label("Apply").click();
    harness.run();
    assert!(harness.query_by_label_contains("Damage 100 hp/s").is_some());
    pick_preset(&mut harness, "Deep ocean");
    harness.get_by_label("Apply").click();
    harness.run();
    // the lava's damage, diffuse and specular colours are gone with it
    assert!(
        harness.query_by_label_contains("Damage 0 hp/s").is_some(),
        "a lake still hurts units after Deep ocean"
    );
    let deep = builtin_presets()
        .into_iter()
        .find(|p| p.name == "Deep ocean")
        .unwrap();
    let water = &harness.state().1.water;
    assert_eq!(water.damage, None);
    assert_eq!(water.diffuse_color, None);
    assert_eq!(water.specular_color, None);
    assert_eq!(water.to_lua(), deep.water.to_lua());
}

#[test]
fn the_preset_list_starts_afresh_when_another_map_opens() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    harness.get_by_label("Water").click();
    harness.step();
    harness.step();
    pick_preset(&mut harness, "Murky swamp");
    assert_eq!(
        harness.get_by_label("Preset").value().as_deref(),
        Some("Murky swamp")
    );
    // picked, not applied: the map is unchanged, so it opens without asking
    harness.get_by_label("File").click();
    for _ in 0..3 {
        harness.step();
    }
    harness.get_by_label("Open the starter map").click();
    harness.step();
    assert!(!harness.state().is_ready(), "no map is opening");
    wait_until_ready(&mut harness);
    let first = builtin_presets()[0].name.clone();
    assert_eq!(
        harness.get_by_label("Preset").value().as_deref(),
        Some(first.as_str())
    );
}

/// The label of the range dialog's Widen button, if the dialog is up.
fn widen_offer(harness: &Harness<'_, EditorApp>) -> Option<String> {
    harness
        .query_by_label_contains("Widen the range to")
        .and_then(|n| n.accesskit_node().label())
}

/// What the Widen button should say for the document's heights now.
fn expected_offer(harness: &Harness<'_, EditorApp>) -> String {
    let map = harness.state().document().unwrap().map();
    let (lo, hi) = map.heights.min_max();
    let (wlo, whi) = groundwork::edit::session::widened_range(map, lo, hi);
    format!("Widen the range to {wlo:.0} .. {whi:.0}")
}

#[test]
fn the_range_offer_follows_the_heights_through_undo() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    let max = {
        let s = &harness.state().document().unwrap().map().settings;
        s.max_height_elmos
    };
    let (low, high) = (max + 95.0, max + 263.0);
    harness.get_by_label("Set / level").click();
    harness.step();
    let set_height = |harness: &mut Harness<'_, EditorApp>, h: f32| {
        let s = harness.state_mut().tools().current_settings_mut().unwrap();
        s.set_number("height_elmos", h);
        s.brush.radius_elmos = 60.0;
        s.brush.strength = 1.0;
    };
    set_height(&mut harness, low);
    drag(
        &mut harness,
        &[egui::pos2(500.0, 380.0), egui::pos2(510.0, 385.0)],
    );
    let first = widen_offer(&harness).expect("the stroke left the range: an offer");
    assert_eq!(first, expected_offer(&harness));
    set_height(&mut harness, high);
    drag(
        &mut harness,
        &[egui::pos2(700.0, 420.0), egui::pos2(710.0, 425.0)],
    );
    let second = widen_offer(&harness).expect("still outside the range");
    assert_eq!(second, expected_offer(&harness));
    assert_ne!(first, second, "the second stroke went higher");

    // undo the higher stroke: the offer is the first one's again, not the stale highest
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    harness.step();
    assert_eq!(widen_offer(&harness), Some(first));
    // undo the other: the heights fit, the question goes away
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    harness.step();
    let map = harness.state().document().unwrap().map();
    assert!(map.heights.min_max().1 <= map.settings.max_height_elmos);
    assert_eq!(widen_offer(&harness), None);
    assert!(
        harness
            .query_by_label_contains("Heights outside the range")
            .is_none()
    );
}

#[test]
fn the_minimap_follows_a_stroke_a_few_times_a_second() {
    let map = groundwork::edit::procedural::relief_map(MapSize::new(2, 2).unwrap(), 3, "Minimap");
    let state = (MinimapPanel::default(), Session::new(map));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(260.0, 280.0))
        // 20 frames a second on egui's clock
        .with_step_dt(0.05)
        .build_ui_state(
            |ui, (panel, session): &mut (MinimapPanel, Session)| {
                let view = ViewOptions::default();
                panel.ui(
                    ui,
                    session.map(),
                    session.revision(),
                    &view,
                    [512.0, 512.0],
                    None,
                );
            },
            state,
        );
    harness.step();
    let before = harness.state().0.image().expect("a picture").clone();

    // a tall raise stroke across the middle, as the viewport makes one
    let session = &mut harness.state_mut().1;
    let raise = groundwork::edit::tools::find("raise").unwrap();
    let mut settings = ToolSettings::defaults(raise);
    settings.brush.radius_elmos = 160.0;
    settings.brush.strength = 1.0;
    session
        .begin_stroke(raise, settings, false, [300.0, 500.0], None)
        .unwrap();
    for k in 1..=20 {
        session
            .stroke_to([300.0 + k as f32 * 20.0, 500.0], 0.1, None)
            .unwrap();
    }
    session.end_stroke([700.0, 500.0], None).unwrap().unwrap();

    // within a quarter second of the last picture the old one stays...
    harness.step();
    assert_eq!(harness.state().0.image().unwrap(), &before);
    // ...then the stroke shows
    for _ in 0..6 {
        harness.step();
    }
    let after = harness.state().0.image().unwrap().clone();
    assert_eq!(after.size, before.size);
    let changed = after
        .pixels
        .iter()
        .zip(&before.pixels)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 200,
        "the minimap shows {changed} changed texels after the stroke"
    );
    // the change is where the stroke went (middle row band), not elsewhere
    let [w, h] = after.size;
    let far_corner = (0..h / 8)
        .flat_map(|y| (0..w / 8).map(move |x| y * w + x))
        .filter(|&i| after.pixels[i] != before.pixels[i])
        .count();
    assert_eq!(far_corner, 0, "the untouched corner changed");
}

#[test]
fn scrolling_zooms_toward_the_ground_under_the_cursor() {
    let Some(setup) = gpu_setup() else { return };
    let mut harness = editor(EditorOptions::default(), setup);
    wait_until_ready(&mut harness);
    // off the view's middle, toward its lower left
    let view = harness.get_by_label("Map view").rect();
    let at = view.center() + egui::vec2(-0.25 * view.width(), 0.2 * view.height());
    let middle = view.center();
    let ground = harness.state().ground_under(at).expect("ground there");
    let middle_before = harness.state().ground_under(middle).unwrap();
    harness.event(egui::Event::PointerMoved(at));
    harness.step();
    for _ in 0..3 {
        harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 120.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::NONE,
        });
        for _ in 0..8 {
            harness.step();
        }
    }
    let after = harness.state().ground_under(at).expect("ground there");
    let middle_after = harness.state().ground_under(middle).unwrap();
    // it zoomed: the middle of the view is now elsewhere on the ground...
    let moved = (middle_after - middle_before).length();
    assert!(moved > 100.0, "the view's middle moved only {moved} elmos");
    // ...while the ground under the cursor stayed put
    let drift = (after - ground).length();
    assert!(
        drift < 12.0,
        "the ground under the cursor moved {drift} elmos: {ground} -> {after}"
    );
}

#[test]
fn the_navigate_tool_says_how_to_move_the_camera() {
    let map = groundwork::edit::procedural::relief_map(MapSize::new(2, 2).unwrap(), 3, "Help");
    let state = (
        groundwork::ui::tools_panel::ToolsPanel::default(),
        ViewOptions::default(),
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 700.0))
        .build_ui_state(
            |ui, (panel, view): &mut (groundwork::ui::tools_panel::ToolsPanel, ViewOptions)| {
                panel.ui(ui, view, &map.settings, map.symmetry, true, true, None);
            },
            state,
        );
    harness.run();
    assert!(harness.query_by_label_contains("Right-drag pans").is_none());
    harness.get_by_label("Navigate").click();
    harness.run();
    for words in [
        "Scroll zooms toward",
        "Right-drag pans",
        "middle-drag",
        "orbits",
    ] {
        assert!(
            harness.query_by_label_contains(words).is_some(),
            "the Navigate help lacks {words:?}"
        );
    }
}

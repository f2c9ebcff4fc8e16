//! The whole editor in egui_kittest, on the real wgpu path (our device request, the GPU view
//! drawn into the window): it opens on the starter map, draws it, and undoes a stroke.
//! Skips with a message when there is no GPU adapter.

mod editor_support;

use editor_support::{editor, gpu_setup, step_until};
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

//! The editor's panels through egui_kittest: snapshots of each panel (drawn by wgpu on
//! lavapipe; references in `tests/snapshots/`, written with `UPDATE_SNAPSHOTS=1`) and the
//! interactions that matter. Skips with a message when there is no GPU adapter to draw with.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use glam::Vec3;
use groundwork::edit::procedural::relief_map;
use groundwork::gpu::ViewOptions;
use groundwork::map::{Map, MapSettings, MapSize};
use groundwork::ui::log_panel::LogPanel;
use groundwork::ui::minimap_panel::MinimapPanel;
use groundwork::ui::properties_panel::PropertiesPanel;
use groundwork::ui::status_bar::StatusBar;
use groundwork::ui::tools_panel::ToolsPanel;

fn have_gpu() -> bool {
    match groundwork::gpu::GpuContext::headless() {
        Ok(_) => true,
        Err(e) => {
            groundwork::test_support::skip(&format!("no GPU adapter to draw snapshots with ({e})"));
            false
        }
    }
}

fn small_map() -> Map {
    relief_map(MapSize::new(2, 2).unwrap(), 3, "Panel test")
}

#[test]
fn properties_panel() {
    if !have_gpu() {
        return;
    }
    let map = small_map();
    let mut panel = PropertiesPanel::default();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(380.0, 560.0))
        .wgpu()
        .build_ui(|ui| {
            panel.ui(ui, &map.settings, map.teams.len(), &[], &[]);
        });
    harness.run();
    harness.snapshot("ui_properties");
}

#[test]
fn properties_warn_about_unplayable_settings_and_edit_live() {
    let settings = MapSettings {
        max_metal: 0.02,
        extractor_radius_elmos: 500.0,
        ..MapSettings::default()
    };
    let mut state = (PropertiesPanel::default(), settings, 0usize);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(380.0, 600.0))
        .build_ui_state(
            |ui, (panel, settings, edits): &mut (PropertiesPanel, MapSettings, usize)| {
                if let Some(new) = panel.ui(ui, settings, 0, &[], &[]).settings {
                    *settings = new;
                    *edits += 1;
                }
            },
            state,
        );
    harness.run();
    assert!(
        harness
            .query_by_label_contains("maxMetal is 0.02")
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("extractorRadius is 500")
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("no start positions")
            .is_some()
    );
    // voidWater is a plain checkbox: ticking it changes the settings
    harness.get_by_label("voidWater").click();
    harness.run();
    state = harness.into_state();
    assert!(state.1.void_water);
    assert!(state.2 >= 1);
}

#[test]
fn the_grass_section_writes_custom_grass_config() {
    let settings = MapSettings::default();
    let files = ["maps/grass_blades.dds", "features/tree.lua"];
    let state = (PropertiesPanel::default(), settings);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(380.0, 900.0))
        .build_ui_state(
            |ui, (panel, settings): &mut (PropertiesPanel, MapSettings)| {
                if let Some(new) = panel.ui(ui, settings, 2, &files, &[]).settings {
                    *settings = new;
                }
            },
            state,
        );
    harness.run();
    harness.get_by_label("Grass").click();
    harness.run();
    // BAR's defaults until the map says otherwise
    let combo = harness.get_by_label("grassBladeColorTex");
    assert_eq!(combo.value().as_deref(), Some("BAR's own"));
    // the blade texture: only pictures in the archive are offered
    harness.get_by_label("grassBladeColorTex").click();
    harness.run();
    assert!(harness.query_by_label("features/tree.lua").is_none());
    harness.get_by_label("maps/grass_blades.dds").click();
    harness.run();
    let s = harness.into_state().1;
    let c = groundwork::map::grass::GrassConfig::from_settings(&s);
    assert_eq!(c.blade_texture.as_deref(), Some("maps/grass_blades.dds"));
    let t = s
        .custom
        .get_table("grassConfig")
        .expect("custom.grassConfig written");
    assert_eq!(t.get_number("grassMinSize"), Some(0.3f32 as f64));
    let p = t.get_table("grassShaderParams").unwrap();
    assert_eq!(p.get_number("FADEEND"), Some(8000.0));
}

#[test]
fn tools_panel_with_legends() {
    if !have_gpu() {
        return;
    }
    let map = small_map();
    let mut panel = ToolsPanel::default();
    let mut view = ViewOptions {
        metal: true,
        types: true,
        ..ViewOptions::default()
    };
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 900.0))
        .wgpu()
        .build_ui(|ui| {
            panel.ui(ui, &mut view, &map.settings, map.symmetry, true, true, None);
        });
    harness.run();
    // the metal legend is in metal units: 255 x maxMetal 2.0
    assert!(harness.query_by_label_contains("510.0 metal").is_some());
    assert!(harness.query_by_label_contains("2: Rock").is_some());
    harness.snapshot("ui_tools");
}

#[test]
fn choosing_a_tool() {
    let map = small_map();
    let state = (ToolsPanel::default(), ViewOptions::default());
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 600.0))
        .build_ui_state(
            |ui, (panel, view): &mut (ToolsPanel, ViewOptions)| {
                panel.ui(ui, view, &map.settings, map.symmetry, true, true, None);
            },
            state,
        );
    assert_eq!(harness.state().0.current().unwrap().0.name(), "raise");
    // every registered tool is offered
    for t in groundwork::edit::TOOLS {
        assert!(
            harness.query_all_by_label(t.label()).next().is_some(),
            "{}",
            t.label()
        );
    }
    harness.get_by_label("Smooth").click();
    harness.run();
    assert_eq!(harness.state().0.current().unwrap().0.name(), "smooth");
    harness.get_by_label("Navigate").click();
    harness.run();
    harness.get_by_label("Grid (128 squares)").click();
    harness.run();
    assert!(harness.state().0.current().is_none());
    assert!(harness.state().1.grid);
}

#[test]
fn a_setting_without_effect_in_the_chosen_mode_is_greyed_out() {
    let map = small_map();
    let state = (ToolsPanel::default(), ViewOptions::default());
    let mut harness = Harness::builder()
        .with_size(egui::vec2(280.0, 600.0))
        .build_ui_state(
            |ui, (panel, view): &mut (ToolsPanel, ViewOptions)| {
                panel.ui(ui, view, &map.settings, map.symmetry, true, true, None);
            },
            state,
        );
    harness.get_by_label("Flatten").click();
    harness.run();
    // flatten's typed height does nothing while the target is the ground under the click
    assert!(
        harness
            .get_by_label("Height")
            .accesskit_node()
            .is_disabled()
    );
    assert!(
        !harness
            .get_by_label("Radius")
            .accesskit_node()
            .is_disabled()
    );
    harness.get_by_label("typed").click();
    harness.run();
    assert!(
        !harness
            .get_by_label("Height")
            .accesskit_node()
            .is_disabled()
    );
    let (tool, settings) = harness.state().0.current().unwrap();
    assert_eq!(tool.name(), "flatten");
    assert_eq!(settings.choice("target"), 1);
    harness.get_by_label("first-click").click();
    harness.run();
    assert!(
        harness
            .get_by_label("Height")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn status_bar_shows_what_is_under_the_cursor() {
    if !have_gpu() {
        return;
    }
    let mut map = small_map();
    map.metal.set(10, 12, 255);
    let mut bar = StatusBar;
    let at = Vec3::new(10.0 * 16.0 + 4.0, 0.0, 12.0 * 16.0 + 4.0);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(900.0, 28.0))
        .wgpu()
        .build_ui(|ui| bar.ui(ui, Some(&map), Some(at), None, "lavapipe"));
    harness.run();
    assert!(
        harness
            .query_by_label_contains("metal 510.00 (byte 255)")
            .is_some()
    );
    harness.snapshot("ui_status_bar");
}

#[test]
fn minimap_and_log() {
    if !have_gpu() {
        return;
    }
    let map = small_map();
    let mut minimap = MinimapPanel::default();
    let mut log = LogPanel::default();
    log.info("opened the starter map");
    log.warn("maxMetal is 0.02");
    log.error("cannot write /nowhere: permission denied");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(260.0, 420.0))
        .wgpu()
        .build_ui(|ui| {
            minimap.ui(
                ui,
                &map,
                0,
                &ViewOptions::default(),
                [512.0, 512.0],
                Some([
                    [100.0, 100.0],
                    [900.0, 100.0],
                    [800.0, 700.0],
                    [200.0, 700.0],
                ]),
            );
            ui.separator();
            log.ui(ui);
        });
    harness.run();
    harness.mask(egui::Rect::from_min_max(
        egui::pos2(0.0, 280.0),
        egui::pos2(70.0, 420.0),
    ));
    harness.snapshot("ui_minimap_log");
}

#[test]
fn water_presets_apply_and_save() {
    use groundwork::map::water::WaterPreset;
    let state = (
        PropertiesPanel::default(),
        MapSettings::default(),
        Vec::<WaterPreset>::new(),
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(420.0, 1400.0))
        .build_ui_state(
        |ui, (panel, settings, presets): &mut (PropertiesPanel, MapSettings, Vec<WaterPreset>)| {
            let change = panel.ui(ui, settings, 2, &[], presets);
            if let Some(s) = change.settings {
                *settings = s;
            }
            if let Some(p) = change.presets {
                *presets = p;
            }
        },
        state,
    );
    harness.run();
    harness.get_by_label("Water").click();
    harness.run();
    // unset keys show the engine default; specularFactor's is 1
    assert!(
        harness
            .query_all_by_label_contains("1 (default)")
            .next()
            .is_some()
    );
    harness.get_by_label("Preset").click();
    harness.run();
    harness.get_by_label("Deep ocean").click();
    harness.run();
    harness.get_by_label("Apply").click();
    harness.run();
    let deep = groundwork::map::water::builtin_presets()
        .into_iter()
        .find(|p| p.name == "Deep ocean")
        .unwrap();
    assert_eq!(
        harness.state().1.water.surface_color,
        deep.water.surface_color
    );
    // the set keys now have reset buttons; saving keeps the look under a name
    assert!(harness.query_all_by_label("reset").next().is_some());
    harness.get_by_label("Save as").click();
    harness.run();
    harness.get_by_label("Save as").type_text("My sea");
    harness.run();
    harness.get_by_label("Save preset").click();
    harness.run();
    let (_, settings, presets) = harness.into_state();
    assert_eq!(presets.len(), 1);
    assert_eq!(presets[0].name, "My sea");
    assert_eq!(presets[0].water, settings.water);
}

/// A map with three layers: rock on cliffs, grass on splat channel 0, a solid beach.
fn layered_map() -> Map {
    use groundwork::map::ground_layers::{Band, Material, TextureLayer};
    use groundwork::map::materials::BuiltinMaterial;
    let mut map = small_map();
    let builtin = |kind| Material::Builtin {
        kind,
        scale_elmos: 256.0,
        tint: [1.0; 3],
    };
    let mut grass = TextureLayer::new("grass", builtin(BuiltinMaterial::Grass));
    grass.splat_channel = Some(0);
    let mut rock = TextureLayer::new("cliff rock", builtin(BuiltinMaterial::Rock));
    rock.rules.slope_deg = Some(Band {
        min: 35.0,
        max: 90.0,
        soft: 5.0,
    });
    let beach = TextureLayer::new(
        "beach",
        Material::Solid {
            color: [220, 200, 150],
        },
    );
    map.texture_layers = vec![grass, rock, beach];
    map
}

/// `map` with a fourth layer of a picture among its files: a green and brown check.
fn with_picture_layer(mut map: Map) -> Map {
    use groundwork::map::ground_layers::{Material, TextureLayer};
    // a picture among the map's files: a green and brown check, 16 texels a square
    let check = image::RgbaImage::from_fn(64, 64, |x, y| {
        if (x / 16 + y / 16) % 2 == 0 {
            image::Rgba([60, 140, 40, 255])
        } else {
            image::Rgba([120, 80, 40, 255])
        }
    });
    let mut png = Vec::new();
    check
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    map.bundled_files.push(groundwork::map::BundledFile::new(
        "textures/moss.png".into(),
        png,
    ));
    let moss = TextureLayer::new(
        "moss",
        Material::Picture {
            file: "textures/moss.png".into(),
            scale_elmos: 128.0,
            tint: [1.0; 3],
        },
    );
    map.texture_layers.push(moss);
    map
}

type LayersState = (
    groundwork::ui::layers_panel::LayersPanel,
    Vec<groundwork::map::ground_layers::TextureLayer>,
    Vec<String>,
);

/// The panel over `map`'s stack in a harness whose state applies every change the panel makes
/// (and keeps what each was called).
fn layers_harness(map: &Map, select: Option<&str>) -> Harness<'static, LayersState> {
    use groundwork::ui::layers_panel::{LayersChange, LayersInput, LayersPanel};
    let mut panel = LayersPanel::default();
    if let Some(s) = select {
        panel.select(s);
    }
    let texture = map.texture.clone();
    let bundled = map.bundled_files.clone();
    let mask_dims = map.metal.dims();
    let range = (map.settings.min_height_elmos, map.settings.max_height_elmos);
    Harness::builder()
        .with_size(egui::vec2(380.0, 640.0))
        .wgpu()
        .build_ui_state(
            move |ui, (panel, layers, whats): &mut LayersState| {
                let input = LayersInput {
                    layers,
                    mask_dims,
                    original: &texture,
                    pictures: &[],
                    bundled: &bundled,
                    height_range_elmos: range,
                };
                match panel.ui(ui, &input) {
                    Some(LayersChange::Step { what, layers: l })
                    | Some(LayersChange::Live { what, layers: l }) => {
                        *layers = l;
                        whats.push(what);
                    }
                    None => {}
                }
            },
            (panel, map.texture_layers.clone(), Vec::new()),
        )
}

#[test]
fn layers_panel() {
    if !have_gpu() {
        return;
    }
    let map = with_picture_layer(layered_map());
    let mut harness = layers_harness(&map, Some("cliff rock"));
    harness.run();
    harness.snapshot("ui_layers");
}

#[test]
fn the_layers_panel_adds_moves_renames_and_deletes_and_refuses_a_bad_stack() {
    if !have_gpu() {
        return;
    }
    let map = layered_map();
    let mut harness = layers_harness(&map, Some("beach"));
    harness.run();
    let names = |h: &Harness<'_, LayersState>| -> Vec<String> {
        h.state().1.iter().map(|l| l.name.clone()).collect()
    };
    // the list is top first, "Original" at the bottom
    let y = |h: &Harness<'_, LayersState>, label: &str| h.get_by_label(label).rect().center().y;
    assert!(y(&harness, "beach") < y(&harness, "cliff rock"));
    assert!(y(&harness, "cliff rock") < y(&harness, "grass  (splat 0)"));
    assert!(y(&harness, "grass  (splat 0)") < y(&harness, "Original"));

    // add: a rock layer on top, named apart from the others
    harness.get_by_label("Add layer").click();
    harness.run();
    assert_eq!(names(&harness), ["grass", "cliff rock", "beach", "rock"]);

    // a rename to "Original" is refused with its reason, and nothing changes
    harness.state_mut().0.select("beach");
    harness.run();
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Name")
        .click();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Name")
        .type_text("Original");
    harness.run();
    harness.get_by_label("Rename").click();
    harness.run();
    assert_eq!(names(&harness), ["grass", "cliff rock", "beach", "rock"]);
    assert!(
        harness
            .query_by_label_contains("must be 1..64 letters")
            .is_some(),
        "the refusal says why"
    );
    // a good name goes through
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Name")
        .click();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Name")
        .type_text("dry sand");
    harness.run();
    harness.get_by_label("Rename").click();
    harness.run();
    assert_eq!(names(&harness), ["grass", "cliff rock", "dry sand", "rock"]);
    assert!(harness.query_by_label_contains("must be 1..64").is_none());

    // move the renamed layer up, over rock, then delete rock
    let buttons = harness.get_all_by_label("up").collect::<Vec<_>>().len();
    assert_eq!(buttons, 4, "one move-up button a layer");
    harness.state_mut().0.select("dry sand");
    harness.run();
    // rows are top first: rock, dry sand, cliff rock, grass; dry sand's up button is the second
    harness.get_all_by_label("up").nth(1).unwrap().click();
    harness.run();
    assert_eq!(names(&harness), ["grass", "cliff rock", "rock", "dry sand"]);
    // rock is now the second row from the top
    harness.get_all_by_label("delete").nth(1).unwrap().click();
    harness.run();
    assert_eq!(names(&harness), ["grass", "cliff rock", "dry sand"]);
    let whats = harness.state().2.clone();
    assert_eq!(
        whats,
        [
            "add layer rock",
            "rename layer beach to dry sand",
            "move layer dry sand up",
            "delete layer rock"
        ]
    );
}

#[test]
fn hide_and_solo_change_the_view_only() {
    let map = layered_map();
    let mut harness = layers_harness(&map, None);
    harness.run();
    let solo_buttons: Vec<_> = harness.get_all_by_label("S").collect();
    assert_eq!(solo_buttons.len(), 3);
    // top first: beach, cliff rock, grass; solo cliff rock
    harness.get_all_by_label("S").nth(1).unwrap().click();
    harness.run();
    let v = harness.state().0.visibility(&harness.state().1);
    assert_eq!(v.solo, Some(1), "cliff rock is layer 1, bottom first");
    assert_eq!(v.hidden, [false, false, false]);
    // hide the beach (the top row's tick)
    harness
        .get_all_by_role(egui::accesskit::Role::CheckBox)
        .next()
        .unwrap()
        .click();
    harness.run();
    let v = harness.state().0.visibility(&harness.state().1);
    assert_eq!(v.hidden, [false, false, true]);
    assert!(harness.state().2.is_empty(), "the document did not change");
    assert_eq!(harness.state().1, map.texture_layers);
}

#[test]
fn a_taken_splat_channel_cannot_be_chosen_and_rules_edit_the_selected_layer() {
    let map = layered_map();
    let mut harness = layers_harness(&map, Some("beach"));
    harness.run();
    // tick the slope rule: a step on the beach layer, rock's band untouched
    harness.get_by_label("Slope").click();
    harness.run();
    let layers = harness.state().1.clone();
    assert!(layers[2].rules.slope_deg.is_some());
    assert_eq!(layers[1].rules, map.texture_layers[1].rules);
    assert_eq!(harness.state().2, ["layer beach: slope"]);
    // channel 0 is grass's: offered, but not selectable
    harness.get_by_label("Splat channel").click();
    harness.run();
    assert!(
        harness
            .query_by_label("channel 0 (taken by grass)")
            .is_some()
    );
    harness.get_by_label("channel 2").click();
    harness.run();
    assert_eq!(harness.state().1[2].splat_channel, Some(2));
}

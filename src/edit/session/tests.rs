//! The session driven as the editor and scripts drive it: strokes, undo, the height range,
//! heightmaps, byte layers.
use super::*;
use crate::edit::tools;
use crate::map::{MapSettings, MapSize};

fn session() -> Session {
    let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
    for (i, h) in map.heights.data_mut().iter_mut().enumerate() {
        *h = ((i % 129) as f32 * 0.7).sin() * 20.0 + 50.0;
    }
    Session::new(map)
}

fn paint(s: &mut Session, tool: &str, path: &[[f32; 2]]) -> Option<StrokeReport> {
    let t = tools::find(tool).unwrap();
    let mut set = ToolSettings::defaults(t);
    set.brush.radius_elmos = 100.0;
    s.begin_stroke(t, set, false, path[0], None).unwrap();
    for p in &path[1..] {
        s.stroke_to(*p, 0.0, None).unwrap();
    }
    s.end_stroke(*path.last().unwrap(), None).unwrap()
}

#[test]
fn a_cpu_stroke_is_one_step_of_touched_tiles() {
    let mut s = session();
    let before = s.map().heights.clone();
    let r = paint(&mut s, "raise", &[[100.0, 100.0], [300.0, 150.0]]).unwrap();
    assert!(r.dabs > 5);
    assert!(s.dirty());
    assert_eq!(s.history().undo_len(), 1);
    assert_ne!(s.map().heights, before);
    s.undo(None).unwrap();
    assert_eq!(s.map().heights, before);
    s.redo(None).unwrap();
    assert_ne!(s.map().heights, before);
}

#[test]
fn leaving_the_range_is_reported_and_can_be_widened() {
    let mut s = session();
    let t = tools::find("set").unwrap();
    let mut set = ToolSettings::defaults(t);
    set.set_number("height_elmos", 650.0);
    s.begin_stroke(t, set, false, [500.0, 500.0], None).unwrap();
    let r = s.end_stroke([500.0, 500.0], None).unwrap().unwrap();
    let (_, hi) = r.out_of_range.unwrap();
    assert_eq!(hi, 650.0);
    assert!(r.range_warning(s.map()).unwrap().contains("widen"));
    s.widen_range_to_fit().unwrap();
    assert_eq!(s.map().settings.max_height_elmos, 650.0);
    assert_eq!(s.map().height_word(650.0), 65535);
    s.undo(None).unwrap();
    assert_eq!(s.map().settings.max_height_elmos, 400.0);
    s.clip_heights_to_range(None).unwrap();
    assert_eq!(s.map().heights.min_max().1, 400.0);
}

#[test]
fn a_heightmap_imports_as_one_step_resampled_when_its_size_differs() {
    let mut s = session();
    // heights as a saved project holds them: whole words
    let words = s.map().height_words();
    s.map_mut().set_height_words(&words);
    let before = s.map().heights.clone();
    let (w, h) = before.dims();
    // the map's own words, as height.png holds them, come back to the same heights
    let image = Grid::from_vec(w, h, words.iter().map(|&v| v as f32 / 65535.0).collect()).unwrap();
    assert!(s.import_heightmap(&image, None).unwrap().is_none());
    assert!(!s.history().can_undo(), "nothing changed, no step");
    let ramp = Grid::from_vec(2, 2, vec![0.0, 1.0, 0.0, 1.0]).unwrap();
    let note = s.import_heightmap(&ramp, None).unwrap().unwrap();
    assert!(note.contains("resampled"), "{note}");
    let m = s.map();
    assert_eq!(m.heights.get(0, 0), m.settings.min_height_elmos);
    assert_eq!(m.height_word(m.heights.get(w - 1, 5)), 65535);
    assert!(
        (m.heights.get(w / 2, 0) - 150.0).abs() < 2.0,
        "half way up the range"
    );
    s.undo(None).unwrap();
    assert_eq!(s.map().heights, before);
}

/// A tool painting the metal layer: raise's arithmetic on bytes.
struct MetalBrush;
static METAL_KERNEL: crate::edit::kernel::KernelSpec = crate::edit::kernel::KernelSpec {
    name: "test-metal",
    wgsl: "",
    dab_loop: true,
    entries: &["main"],
    extras: &[],
    cpu: |_, pass| pass.dab_loop(|_, v, _, dab, w| v + dab.amount * w),
    cpu_dispatch: None,
};
impl Tool for MetalBrush {
    fn name(&self) -> &'static str {
        "test-metal"
    }
    fn label(&self) -> &'static str {
        "Metal"
    }
    fn help(&self) -> &'static str {
        ""
    }
    fn layer(&self) -> LayerId {
        LayerId::Metal
    }
    fn kernel(&self) -> &'static crate::edit::kernel::KernelSpec {
        &METAL_KERNEL
    }
    fn setup(
        &self,
        s: &crate::edit::tools::StrokeStart,
    ) -> Result<crate::edit::tools::ToolSetup, String> {
        Ok(crate::edit::tools::ToolSetup::dab_amount(
            100.0 * s.settings.brush.strength,
        ))
    }
}
static METAL_BRUSH: MetalBrush = MetalBrush;

#[test]
fn a_stroke_on_a_byte_layer_ends_as_bytes_and_undoes() {
    let mut s = session();
    let mut set = ToolSettings::defaults(&METAL_BRUSH);
    set.brush.radius_elmos = 64.0;
    set.brush.strength = 1.0;
    s.begin_stroke(&METAL_BRUSH, set, false, [300.0, 300.0], None)
        .unwrap();
    s.stroke_to([600.0, 340.0], 0.0, None).unwrap();
    // the document keeps its bytes until the end; the stroke works on floats
    assert!(s.map().metal.data().iter().all(|&b| b == 0));
    let r = s.end_stroke([600.0, 340.0], None).unwrap().unwrap();
    assert!(r.out_of_range.is_none());
    let m = &s.map().metal;
    assert_eq!(m.get(25, 19), 255, "many dabs, clamped to a byte");
    assert!(
        m.data().iter().any(|&b| b > 0 && b < 255),
        "the soft edge rounds"
    );
    assert_eq!(m.get(60, 60), 0);
    s.undo(None).unwrap();
    assert!(s.map().metal.data().iter().all(|&b| b == 0));
    s.redo(None).unwrap();
    assert_eq!(s.map().metal.get(25, 19), 255);
}

#[test]
fn a_cancelled_stroke_leaves_nothing() {
    let mut s = session();
    let before = s.map().heights.clone();
    let t = tools::find("lower").unwrap();
    s.begin_stroke(t, ToolSettings::defaults(t), false, [600.0, 600.0], None)
        .unwrap();
    s.stroke_to([700.0, 650.0], 0.1, None).unwrap();
    assert_ne!(s.map().heights, before);
    s.cancel_stroke(None);
    assert_eq!(s.map().heights, before);
    assert!(!s.history().can_undo());
}

#[test]
fn spots_move_reshape_and_delete_with_their_copies_as_one_step_each() {
    use crate::map::metal::{bar_spots, paint_dome};
    let mut s = session();
    s.map_mut().symmetry = crate::map::SymmetryMode::MirrorX;
    let mut metal = s.map().metal.clone();
    paint_dome(&mut metal, 200.0, 300.0, 40.0, 150.0);
    paint_dome(&mut metal, 1024.0 - 200.0, 300.0, 40.0, 150.0);
    let values = Grid::from_vec(64, 64, metal.data().iter().map(|&b| b as f32).collect()).unwrap();
    s.replace_layer(LayerId::Metal, &values, "domes", None)
        .unwrap();
    let spots = |s: &Session| bar_spots(&s.map().metal, 1.0, 80.0);
    let before = spots(&s);
    assert_eq!(before.len(), 2);
    // drag the left one 64 elmos right: the right one moves 64 elmos left
    let what = s
        .edit_spot([200.0, 300.0], SpotEdit::Move { to: [264.0, 300.0] }, None)
        .unwrap()
        .unwrap();
    assert!(what.contains("copies"), "{what}");
    let after = spots(&s);
    assert_eq!(after[0].x_elmos, before[0].x_elmos + 64.0);
    assert_eq!(after[1].x_elmos, before[1].x_elmos - 64.0);
    assert_eq!(
        after[0].worth, before[0].worth,
        "the bytes moved as they were"
    );
    s.edit_spot(
        [264.0, 300.0],
        SpotEdit::Reshape {
            radius_elmos: 64.0,
            peak: 60.0,
        },
        None,
    )
    .unwrap()
    .unwrap();
    assert!(spots(&s)[0].cells > before[0].cells);
    s.edit_spot([264.0, 300.0], SpotEdit::Delete, None)
        .unwrap()
        .unwrap();
    assert!(spots(&s).is_empty());
    assert!(
        s.edit_spot([600.0, 600.0], SpotEdit::Delete, None)
            .unwrap()
            .is_none()
    );
    // three steps, undone one by one
    s.undo(None);
    s.undo(None);
    s.undo(None);
    assert_eq!(spots(&s), before);
}

#[test]
fn an_edit_of_settings_teams_and_bytes_is_one_step() {
    let mut s = session();
    let before = s.map().clone();
    s.edit(
        "a lint fix",
        |m| {
            m.settings.max_metal = 2.5;
            m.teams.push(crate::map::Team {
                start_x_elmos: 10.0,
                start_z_elmos: 20.0,
            });
            m.metal.set(3, 4, 77);
            m.grass.set(30, 31, 9);
        },
        None,
    )
    .unwrap();
    assert_eq!(s.history().undo_len(), 1);
    // one tile of metal and one of grass, not the whole layers
    match s.history().next_undo().unwrap() {
        Change::Edit { patches, .. } => assert_eq!(patches.len(), 2),
        other => panic!("{other:?}"),
    }
    s.undo(None).unwrap();
    assert_eq!(s.map().settings, before.settings);
    assert_eq!(s.map().teams, before.teams);
    assert_eq!(s.map().metal, before.metal);
    assert_eq!(s.map().grass, before.grass);
    s.redo(None).unwrap();
    assert_eq!(s.map().settings.max_metal, 2.5);
    assert_eq!(s.map().metal.get(3, 4), 77);
    // an edit that changes nothing is no step
    s.edit("nothing", |_| {}, None).unwrap();
    assert_eq!(s.history().undo_len(), 1);
}

fn two_layers(s: &mut Session) {
    use crate::map::ground_layers::{Material, TextureLayer};
    use crate::map::materials::BuiltinMaterial;
    let (w, h) = s.map().metal.dims();
    s.edit(
        "two layers",
        |m| {
            let mut rock = TextureLayer::new(
                "Rock",
                Material::Builtin {
                    kind: BuiltinMaterial::Rock,
                    scale_elmos: 256.0,
                    tint: [1.0; 3],
                },
            );
            let mut mask = Grid::filled(w, h, 128u8);
            mask.set(3, 5, 255);
            rock.mask = Some(mask);
            m.texture_layers = vec![
                TextureLayer::new("Base", Material::Solid { color: [9, 8, 7] }),
                rock,
            ];
        },
        None,
    )
    .unwrap();
}

#[test]
fn undoing_a_layer_delete_brings_its_painted_mask_back() {
    let mut s = session();
    two_layers(&mut s);
    let stack = s.map().texture_layers.clone();
    s.edit("delete Base", |m| drop(m.texture_layers.remove(0)), None)
        .unwrap();
    assert_eq!(s.map().texture_layers.len(), 1);
    // the delete moved Rock's mask down a place: the step holds the masks
    match s.history().next_undo().unwrap() {
        Change::Edit { before, .. } => assert!(before.texture.masks.is_some()),
        other => panic!("{other:?}"),
    }
    s.edit("delete Rock", |m| m.texture_layers.clear(), None)
        .unwrap();
    s.undo(None).unwrap();
    s.undo(None).unwrap();
    assert_eq!(s.map().texture_layers, stack);
    s.redo(None).unwrap();
    assert_eq!(s.map().texture_layers[0], stack[1]);
    s.undo(None).unwrap();
    s.undo(None).unwrap();
    assert!(s.map().texture_layers.is_empty());
}

#[test]
fn a_live_edit_is_one_step_without_the_masks() {
    let mut s = session();
    two_layers(&mut s);
    let stack = s.map().texture_layers.clone();
    for k in 1..=10 {
        s.edit_live("opacity", |m| {
            m.texture_layers[1].opacity = 1.0 - k as f32 * 0.05
        })
        .unwrap();
        assert!(s.editing_live());
    }
    assert_eq!(s.history().undo_len(), 1, "no step while it runs");
    s.end_live_edit();
    assert!(!s.editing_live());
    assert_eq!(s.history().undo_len(), 2);
    match s.history().next_undo().unwrap() {
        Change::Edit { before, after, .. } => {
            assert!(before.texture.masks.is_none() && after.texture.masks.is_none());
            assert_eq!(after.texture.layers[1].opacity, 0.5);
        }
        other => panic!("{other:?}"),
    }
    s.undo(None).unwrap();
    assert_eq!(s.map().texture_layers, stack, "masks kept, opacity back");
    s.redo(None).unwrap();
    assert_eq!(s.map().texture_layers[1].opacity, 0.5);
    assert_eq!(s.map().texture_layers[1].mask, stack[1].mask);
    // undo in the middle of a live edit closes it first
    s.edit_live("rules", |m| m.texture_layers[0].rules.under_metal = true)
        .unwrap();
    s.undo(None).unwrap();
    assert!(!s.map().texture_layers[0].rules.under_metal);
    assert_eq!(s.history().undo_len(), 2);
    // a live edit that comes back to where it began is no step
    s.edit_live("opacity", |m| m.texture_layers[1].opacity = 0.2)
        .unwrap();
    s.edit_live("opacity", |m| m.texture_layers[1].opacity = 0.5)
        .unwrap();
    s.end_live_edit();
    assert_eq!(s.history().undo_len(), 2);
}

#[test]
fn a_generated_map_is_one_undo_step() {
    use crate::map::recipe::{Preset, Recipe, Step};
    let mut map = Map::new(MapSize::new(8, 8).unwrap(), MapSettings::default());
    map.symmetry = crate::map::SymmetryMode::MirrorX;
    let before = map.clone();
    let mut s = Session::new(map);
    let mut recipe = Recipe::preset(Preset::Hills, 3);
    recipe
        .steps
        .retain(|s| !matches!(s, Step::ThermalErosion(_) | Step::HydraulicErosion(_)));
    s.generate(&recipe, "generate hills", None).unwrap();
    let m = s.map();
    assert_ne!(m.heights, before.heights);
    assert!(m.metal.data().iter().any(|&b| b > 0));
    assert_eq!(m.teams.len(), 2);
    assert!(
        m.features
            .iter()
            .any(|f| f.name == crate::map::bar::GEOVENT)
    );
    assert_eq!(m.generator.as_ref(), Some(&recipe));
    assert!(!m.texture_layers.is_empty());
    assert_eq!(s.undo(None).as_deref(), Some("generate hills"));
    let m = s.map();
    assert_eq!(m.heights, before.heights);
    assert_eq!(m.metal, before.metal);
    assert_eq!(m.teams, before.teams);
    assert_eq!(m.features, before.features);
    assert!(m.generator.is_none() && m.texture_layers.is_empty());
    assert_eq!(
        (m.settings.min_height_elmos, m.settings.max_height_elmos),
        (
            before.settings.min_height_elmos,
            before.settings.max_height_elmos
        )
    );
    assert!(s.undo(None).is_none(), "one step");
    s.redo(None);
    assert_eq!(s.map().generator.as_ref(), Some(&recipe));
}

#[test]
fn a_resize_is_one_undo_step_and_a_stroke_after_it_works_at_the_new_size() {
    use crate::map::resize::{Anchor, Resize, ResizeHow};
    let mut s = session();
    paint(&mut s, "raise", &[[300.0, 300.0], [500.0, 400.0]]);
    let before = s.map().clone();
    let steps = s.history().undo_len();
    let replaced = s.replacements();
    let request = Resize {
        size: MapSize::new(6, 4).unwrap(),
        how: ResizeHow::Canvas {
            x: Anchor::End,
            z: Anchor::Start,
        },
    };
    let notes = s.resize(request).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(s.map().size, request.size);
    s.map().check_layers().unwrap();
    assert_eq!(s.original_heights().dims(), s.map().heights.dims());
    assert_eq!(s.history().undo_len(), steps + 1);
    assert_ne!(s.replacements(), replaced);
    // the old 2-unit map sits at the right of the 6 units: 4 units (256 squares) along
    let (w, h) = before.heights.dims();
    for z in (0..h).step_by(7) {
        for x in (0..w).step_by(7) {
            assert_eq!(s.map().heights.get(x + 256, z), before.heights.get(x, z));
        }
    }
    // a stroke at the new size, undone, then the resize undone
    paint(&mut s, "raise", &[[800.0, 1000.0]]);
    assert!(s.map().heights.get(100, 125) > before.heights.get(0, 125));
    s.undo(None).unwrap();
    assert_eq!(s.undo(None).unwrap(), "resize to 6x4");
    assert_eq!(s.map().size, before.size);
    assert_eq!(s.map().heights, before.heights);
    assert_eq!(s.original_heights().dims(), before.heights.dims());
    s.redo(None).unwrap();
    assert_eq!(s.map().size, request.size);
    assert_eq!(s.original_heights().dims(), s.map().heights.dims());
    assert!(s.resize(request).is_err(), "already that size");
}

//! A feature's model for drawing: its definition's `object` found under `objects3d/` among the
//! map's own files or the installed game's, read as S3O and flattened to one triangle list,
//! with its first texture (`unittextures/<texture1>`: RGB colour, A team colour mask) decoded
//! to RGBA. Names are matched case-blind, as the engine's file system does.

use super::FormatError;
use super::features::{FeatureDef, FeatureDefs, GameFileIndex};
use super::image_file::decode_rgba;
use super::s3o::{ModelMesh, read_s3o};
use crate::map::BundledFile;

/// The widest or tallest model texture decoded.
pub const MAX_MODEL_TEXTURE_SIDE: u32 = 4096;

/// A feature's model, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedModel {
    /// The triangles in model space, in elmos, the origin on the ground at the feature's place.
    pub mesh: ModelMesh,
    /// The first texture: (width, height, RGBA8 rows top first); `None` when it could not be
    /// had, and `texture_problem` says why.
    pub texture_rgba: Option<(u32, u32, Vec<u8>)>,
    pub texture_problem: Option<String>,
    /// The radius and height the engine gives the model (the header's, or from the mesh).
    pub radius_elmos: f32,
    pub height_elmos: f32,
    /// The model's path as found (`objects3d/...`), and where: the map's files or the game's.
    pub model_path: String,
    pub from_game: bool,
}

/// Why a feature has no model to draw.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("feature {feature} names no model (no `object` in its definition)")]
    NoObject { feature: String },
    #[error("feature {feature}'s model {object} is not an S3O (only S3O models are read)")]
    NotS3o { feature: String, object: String },
    #[error("{path} is neither among the map's files nor in the installed game")]
    NotFound { path: String },
    #[error(transparent)]
    Unreadable(#[from] FormatError),
}

/// The archive path of the model `object` names: under `objects3d/` (unless it already says
/// so), `.s3o` added when it has no extension. `None` for another model format.
pub fn model_path(object: &str) -> Option<String> {
    let object = object.trim().replace('\\', "/");
    let object = object.trim_start_matches("./");
    let mut path = if object
        .get(..10)
        .is_some_and(|p| p.eq_ignore_ascii_case("objects3d/"))
    {
        object.to_string()
    } else {
        format!("objects3d/{object}")
    };
    let file = path.rsplit('/').next().unwrap_or_default();
    match file.rsplit_once('.') {
        None => path.push_str(".s3o"),
        Some((_, ext)) if ext.eq_ignore_ascii_case("s3o") => {}
        Some(_) => return None,
    }
    Some(path)
}

/// The bytes at `path` among the map's files, else the game's (any case); and whether they
/// came from the game.
fn find_file(
    path: &str,
    map_files: &[BundledFile],
    game: Option<&GameFileIndex>,
) -> Result<Option<(Vec<u8>, bool)>, FormatError> {
    if let Some(f) = map_files.iter().find(|f| f.path.eq_ignore_ascii_case(path)) {
        let bytes = f
            .bytes()
            .map_err(|e| FormatError::invalid(path, format!("unreadable: {e}")))?;
        return Ok(Some((bytes.into_owned(), false)));
    }
    Ok(game.and_then(|g| g.read(path)).map(|b| (b, true)))
}

/// Finds, reads and flattens `def`'s model and decodes its first texture, looking among
/// `map_files` (the map's bundled files) first and then `game` (the installed game's, when
/// there is one).
pub fn load_feature_model(
    def: &FeatureDef,
    map_files: &[BundledFile],
    game: Option<&GameFileIndex>,
) -> Result<LoadedModel, ModelError> {
    let object = def.object.as_deref().ok_or_else(|| ModelError::NoObject {
        feature: def.name.clone(),
    })?;
    let path = model_path(object).ok_or_else(|| ModelError::NotS3o {
        feature: def.name.clone(),
        object: object.to_string(),
    })?;
    let (bytes, from_game) =
        find_file(&path, map_files, game)?.ok_or(ModelError::NotFound { path: path.clone() })?;
    let model = read_s3o(&bytes, &path)?;
    let mesh = model.mesh();
    let (texture_rgba, texture_problem) = if model.texture1.trim().is_empty() {
        (None, Some(format!("{path} names no texture")))
    } else {
        let tex_path = format!("unittextures/{}", model.texture1.trim().replace('\\', "/"));
        match find_file(&tex_path, map_files, game) {
            Ok(Some((tex, _))) => match decode_rgba(&tex, &tex_path, MAX_MODEL_TEXTURE_SIDE) {
                Ok((rgba, w, h)) => (Some((w as u32, h as u32, rgba)), None),
                Err(e) => (None, Some(e.to_string())),
            },
            Ok(None) => (
                None,
                Some(format!(
                    "{tex_path} is neither among the map's files nor in the installed game"
                )),
            ),
            Err(e) => (None, Some(e.to_string())),
        }
    };
    Ok(LoadedModel {
        radius_elmos: model.effective_radius_elmos(&mesh),
        height_elmos: model.effective_height_elmos(&mesh),
        mesh,
        texture_rgba,
        texture_problem,
        model_path: path,
        from_game,
    })
}

/// The model of `name`: its definition among the map's (`own`), else the game's; its files
/// among the map's, else the game's.
pub fn find_model(
    own: &FeatureDefs,
    game: Option<&(FeatureDefs, GameFileIndex)>,
    map_files: &[BundledFile],
    name: &str,
) -> Result<LoadedModel, String> {
    match own
        .get(name)
        .or_else(|| game.and_then(|(d, _)| d.get(name)))
    {
        None => Err(format!(
            "no definition of {name} (the map's features/ or the game's)"
        )),
        Some(def) => {
            load_feature_model(def, map_files, game.map(|(_, i)| i)).map_err(|e| e.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::features::defined_features;
    use crate::formats::s3o::{S3oModel, S3oPiece, S3oPrimitive, S3oVertex, write_s3o};

    #[test]
    fn model_paths_follow_the_engine() {
        assert_eq!(model_path("tree.s3o").unwrap(), "objects3d/tree.s3o");
        assert_eq!(model_path("Rocks/Big").unwrap(), "objects3d/Rocks/Big.s3o");
        assert_eq!(model_path("Objects3D/a.S3O").unwrap(), "Objects3D/a.S3O");
        assert_eq!(model_path("x.y/tree").unwrap(), "objects3d/x.y/tree.s3o");
        assert!(model_path("tank.3do").is_none());
    }

    fn small_model(texture: &str) -> Vec<u8> {
        let v = |x: f32, y: f32| S3oVertex {
            position: [x, y, 0.0],
            normal: [0.0, 0.0, 1.0],
            uv: [x, y],
        };
        write_s3o(&S3oModel {
            version: 0,
            radius_elmos: 0.0,
            height_elmos: 0.0,
            mid: [0.0; 3],
            texture1: texture.into(),
            texture2: String::new(),
            pieces: vec![S3oPiece {
                name: "root".into(),
                parent: None,
                offset_from_parent: [0.0; 3],
                offset_in_model: [0.0; 3],
                primitive: S3oPrimitive::Triangles,
                vertices: vec![v(0.0, 0.0), v(1.0, 0.0), v(0.0, 2.0)],
                indices: vec![0, 1, 2],
            }],
        })
    }

    fn png_2x1() -> Vec<u8> {
        let img = image::RgbaImage::from_raw(2, 1, vec![255, 0, 0, 255, 0, 0, 255, 0]).unwrap();
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn file(path: &str, data: Vec<u8>) -> BundledFile {
        BundledFile::new(path.into(), data)
    }

    #[test]
    fn a_maps_own_feature_finds_its_model_and_texture_in_any_case() {
        let files = [
            file(
                "features/rocks.lua",
                b"return { MyRock = { object = 'Rocks/Big', footprintX = 3, blocking = false, \
                  metal = 12.5, reclaimable = 0 }, Ghost = {} }"
                    .to_vec(),
            ),
            file("Objects3D/rocks/BIG.s3o", small_model("Rock_1.png")),
            file("UnitTextures/rock_1.PNG", png_2x1()),
        ];
        let defs = defined_features(&files);
        let rock = defs.get("myrock").unwrap();
        assert_eq!(rock.object.as_deref(), Some("Rocks/Big"));
        assert_eq!((rock.footprint_x_squares, rock.footprint_z_squares), (3, 1));
        assert!(!rock.blocking && !rock.reclaimable);
        assert_eq!((rock.metal, rock.energy), (12.5, 0.0));
        assert_eq!(rock.file, "features/rocks.lua");
        let model = load_feature_model(rock, &files, None).unwrap();
        assert_eq!(model.mesh.indices, vec![0, 1, 2]);
        assert_eq!(model.model_path, "objects3d/Rocks/Big.s3o");
        assert!(!model.from_game);
        assert_eq!(model.height_elmos, 2.0);
        let (w, h, rgba) = model.texture_rgba.unwrap();
        assert_eq!((w, h), (2, 1));
        assert_eq!(&rgba[..4], &[255, 0, 0, 255]);

        let ghost = defs.get("Ghost").unwrap();
        assert!(ghost.blocking && ghost.reclaimable && ghost.object.is_none());
        let e = load_feature_model(ghost, &files, None).unwrap_err();
        assert!(matches!(e, ModelError::NoObject { .. }), "{e}");
    }

    #[test]
    fn missing_or_broken_models_and_textures_say_why() {
        let def = |object: &str| FeatureDef {
            object: Some(object.into()),
            ..FeatureDef::from_table("x", &crate::map::LuaTable::new(), "features/x.lua")
        };
        let files = [
            file("objects3d/notex.s3o", small_model("")),
            file("objects3d/lost.s3o", small_model("gone.dds")),
            file(
                "objects3d/broken.s3o",
                b"Spring unit\0 and then nothing".to_vec(),
            ),
            file("objects3d/badtex.s3o", small_model("bad.png")),
            file("unittextures/bad.png", b"not a png".to_vec()),
        ];
        let e = load_feature_model(&def("nowhere"), &files, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "objects3d/nowhere.s3o is neither among the map's files nor in the installed game"
        );
        let e = load_feature_model(&def("tank.3do"), &files, None).unwrap_err();
        assert!(matches!(e, ModelError::NotS3o { .. }), "{e}");
        let e = load_feature_model(&def("broken"), &files, None).unwrap_err();
        assert!(e.to_string().starts_with("objects3d/broken.s3o: "), "{e}");
        for (name, why) in [
            ("notex", "names no texture"),
            ("lost", "unittextures/gone.dds is neither"),
            ("badtex", "unittextures/bad.png"),
        ] {
            let m = load_feature_model(&def(name), &files, None).unwrap();
            assert!(m.texture_rgba.is_none());
            let problem = m.texture_problem.unwrap();
            assert!(problem.contains(why), "{name}: {problem}");
        }
    }

    #[test]
    fn a_games_feature_model_comes_from_its_checkout_or_rapid_pool() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert!(GameFileIndex::open(d).is_none());
        // the model in a checkout, its texture in the rapid pool
        let checkout = d.join("games/bar.sdd/objects3d/Trees");
        std::fs::create_dir_all(&checkout).unwrap();
        std::fs::write(checkout.join("Pine.s3o"), small_model("pine.png")).unwrap();
        let md5 = [0x3c; 16];
        let name = "unittextures/Pine.png";
        let mut list = vec![name.len() as u8];
        list.extend_from_slice(name.as_bytes());
        list.extend_from_slice(&md5);
        list.extend_from_slice(&[0; 8]);
        let gz = |b: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(b).unwrap();
            e.finish().unwrap()
        };
        std::fs::create_dir_all(d.join("packages")).unwrap();
        std::fs::write(d.join("packages/p.sdp"), gz(&list)).unwrap();
        std::fs::create_dir_all(d.join("pool/3c")).unwrap();
        std::fs::write(
            d.join(format!("pool/3c/{}.gz", "3c".repeat(15))),
            gz(&png_2x1()),
        )
        .unwrap();
        let game = GameFileIndex::open(d).unwrap();
        assert_eq!(game.len(), 2);
        assert!(game.contains("OBJECTS3D\\trees\\pine.S3O"));
        let def = FeatureDef {
            object: Some("trees/pine.s3o".into()),
            ..FeatureDef::from_table("pine", &crate::map::LuaTable::new(), "features/p.lua")
        };
        let model = load_feature_model(&def, &[], Some(&game)).unwrap();
        assert!(model.from_game);
        assert_eq!(model.texture_rgba.unwrap().0, 2);
        // the map's own copy comes first
        let own = [file("objects3d/trees/pine.s3o", small_model(""))];
        let model = load_feature_model(&def, &own, Some(&game)).unwrap();
        assert!(!model.from_game && model.texture_rgba.is_none());
    }

    #[test]
    fn the_template_tree_resolves_with_its_texture() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/fixtures/bar/Map_Blueprint_V1.sdd");
        if !path.is_dir() {
            crate::test_support::skip("fixtures not found");
            return;
        }
        let files = crate::formats::archive::ArchiveContents::read(&path)
            .unwrap()
            .into_files();
        let defs = defined_features(&files);
        assert!(defs.failed.is_empty(), "{:?}", defs.failed);
        let def = defs.get("fir_tree_small_1()tree_fir_tall_5").unwrap();
        assert_eq!(
            def.object.as_deref(),
            Some("fir_tree_small_1()tree_fir_tall_5.s3o")
        );
        assert_eq!((def.footprint_x_squares, def.footprint_z_squares), (1, 1));
        assert!(!def.blocking);
        assert_eq!((def.metal, def.energy), (0.0, 50.0));
        let model = load_feature_model(def, &files, None).unwrap();
        assert_eq!(model.mesh.positions.len(), 496);
        assert_eq!(model.mesh.indices.len(), 1320);
        assert!(
            model.texture_problem.is_none(),
            "{:?}",
            model.texture_problem
        );
        let (w, h, rgba) = model.texture_rgba.unwrap();
        assert!(w >= 64 && h >= 64, "{w} x {h}");
        assert_eq!(rgba.len(), (w * h * 4) as usize);
        assert!(model.height_elmos > 50.0);
    }
}

//! Beyond All Reason's own numbers, in one place: what its extractors take and reach, how
//! steep its units climb, and the feature names it defines. Both importers, the lint and the
//! metal tool use these.

/// BAR's map template's `extractorRadius`, in elmos (the lint's advice says 90).
pub const EXTRACTOR_RADIUS_ELMOS: f32 = 90.0;
/// BAR's tech-1 extractor's `extractsMetal`.
pub const T1_EXTRACTS_METAL: f32 = 0.001;
/// BAR's moho (tech-2) extractor's `extractsMetal`.
pub const MOHO_EXTRACTS_METAL: f32 = 0.004;
/// BAR's bots climb up to 36 degrees of maxSlope: 1 - cos(1.5 x 36 degrees), as the engine
/// compares slope (1 - normal.y).
pub const BOT_MAX_SLOPE: f32 = 0.412;
/// BAR's tanks climb up to 18 degrees: 1 - cos(1.5 x 18 degrees).
pub const TANK_MAX_SLOPE: f32 = 0.109;
/// The steepest ground (true degrees) most of BAR's buildings stand on: their unit defs'
/// `maxSlope = 10`. The generator keeps start areas, metal spots and vents within it.
pub const BUILD_MAX_SLOPE_DEG: f32 = 10.0;
/// The geothermal vent, one of the engine's built-in features; BAR builds geothermals on it.
pub const GEOVENT: &str = "GeoVent";
/// BAR's destructible rocks (`features/rocks30.lua`), named `rocks30_<biome>_<NN>`.
pub const ROCK_FEATURE_PREFIX: &str = "rocks30";
/// The biomes of BAR's `rocks30` set: `rocks30_<biome>_01` .. `_30`.
const ROCK_BIOMES: [&str; 4] = ["def", "snow", "moss", "desert"];
/// How many rocks each biome of the `rocks30` set has.
const ROCKS_PER_BIOME: u32 = 30;
/// Feature names BAR defines in its own `features/` besides the rocks (its trees and tree
/// clumps), lower-cased as BAR keys them.
const OTHER_STANDARD_FEATURES: [&str; 5] = [
    "lowpoly_tree_pinetree1medium",
    "lowpoly_tree_snowypinetree2large",
    "treecluster_fir_s1",
    "treecluster_fir_m1",
    "geovent",
];

/// BAR's standard feature names, known without BAR installed: every `rocks30_<biome>_NN`
/// and the trees and clumps of its own `features/` (TOOL-FACTS, "Features and their models").
pub fn standard_feature_names() -> Vec<String> {
    ROCK_BIOMES
        .iter()
        .flat_map(|b| {
            (1..=ROCKS_PER_BIOME).map(move |n| format!("{ROCK_FEATURE_PREFIX}_{b}_{n:02}"))
        })
        .chain(OTHER_STANDARD_FEATURES.iter().map(|s| s.to_string()))
        .collect()
}

/// Whether BAR defines `name` in its own `features/` (as BAR keys names: any case).
pub fn is_standard_feature(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    if let Some(rest) = name.strip_prefix(&format!("{ROCK_FEATURE_PREFIX}_"))
        && let Some((biome, n)) = rest.rsplit_once('_')
    {
        return ROCK_BIOMES.contains(&biome)
            && n.len() == 2
            && n.parse::<u32>()
                .is_ok_and(|n| (1..=ROCKS_PER_BIOME).contains(&n));
    }
    OTHER_STANDARD_FEATURES.contains(&name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_standard_names_are_known_and_others_are_not() {
        for n in [
            "rocks30_desert_08",
            "rocks30_def_30",
            "ROCKS30_Snow_01",
            "rocks30_moss_15",
            "treecluster_fir_m1",
            "GeoVent",
        ] {
            assert!(is_standard_feature(n), "{n}");
        }
        for n in [
            "rocks30_def_31",
            "rocks30_def_00",
            "rocks30_lava_08",
            "rocks30_def_8",
            "rocks30_def",
            "my_rock",
            "",
        ] {
            assert!(!is_standard_feature(n), "{n}");
        }
        let all = standard_feature_names();
        assert_eq!(all.len(), 4 * 30 + 5);
        assert!(all.iter().all(|n| is_standard_feature(n)));
    }
}

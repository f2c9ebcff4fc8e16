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
/// The geothermal vent, one of the engine's built-in features; BAR builds geothermals on it.
pub const GEOVENT: &str = "GeoVent";
/// BAR's destructible rocks (`features/rocks30.lua`), named `rocks30_<biome>_<NN>`.
pub const ROCK_FEATURE_PREFIX: &str = "rocks30";

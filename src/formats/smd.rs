//! The old mapconv text description, `maps/<stem>.smd`, written into `.sdz` archives for BAR's
//! map parser: it unpacks only `maps/` from a zip, so it never sees `mapinfo.lua` and reads its
//! name-free settings (heights, metal, wind, starts) from an `.smd` instead. The engine reads
//! `mapinfo.lua` when the archive has one, so this copy of the same settings changes nothing
//! in game.

use crate::map::{MapSettings, Team};

/// The `.smd` text for `settings` and `teams`: the keys the parser reads, with the values
/// `mapinfo.lua` gives them.
pub fn write_smd(settings: &MapSettings, teams: &[Team]) -> String {
    let s = settings;
    // one line each, as the parser reads a value up to the first ';'
    let description: String = s
        .description
        .chars()
        .map(|c| if c == ';' || c.is_control() { ' ' } else { c })
        .collect();
    let mut out = String::from("[MAP]\n{\n");
    let mut line = |key: &str, value: String| out.push_str(&format!("\t{key}={value};\n"));
    line("Description", description);
    line("TidalStrength", num(s.tidal_strength));
    line("Gravity", num(s.gravity));
    line("MaxMetal", num(s.max_metal));
    line("ExtractorRadius", num(s.extractor_radius_elmos));
    line("MapHardness", num(s.map_hardness));
    line("MinWind", num(s.atmosphere.min_wind_or_default()));
    line("MaxWind", num(s.atmosphere.max_wind_or_default()));
    out.push_str("\t[SMF]\n\t{\n");
    out.push_str(&format!("\t\tminheight={};\n", num(s.min_height_elmos)));
    out.push_str(&format!("\t\tmaxheight={};\n", num(s.max_height_elmos)));
    out.push_str("\t}\n");
    for (i, t) in teams.iter().enumerate() {
        out.push_str(&format!(
            "\t[TEAM{i}]\n\t{{\n\t\tStartPosX={};\n\t\tStartPosZ={};\n\t}}\n",
            num(t.start_x_elmos),
            num(t.start_z_elmos)
        ));
    }
    out.push_str("}\n");
    out
}

/// A number as the shortest text that reads back to the same `f32`.
fn num(v: f32) -> String {
    format!("{v}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_as_the_parser_reads_it() {
        let mut s = MapSettings {
            description: "Two hills; a lake\nand a pass".into(),
            max_metal: 2.5,
            min_height_elmos: -120.0,
            max_height_elmos: 480.5,
            ..MapSettings::default()
        };
        s.atmosphere.max_wind = Some(22.0);
        let teams = [
            Team {
                start_x_elmos: 500.0,
                start_z_elmos: 612.25,
            },
            Team {
                start_x_elmos: 3596.0,
                start_z_elmos: 3483.75,
            },
        ];
        let text = write_smd(&s, &teams);
        // the parser's rule: whitespace, a key, '=', the value up to the first ';'
        let value = |key: &str| -> Vec<String> {
            text.lines()
                .filter_map(|l| l.trim_start().strip_prefix(&format!("{key}=")))
                .map(|v| v.split(';').next().unwrap().to_string())
                .collect()
        };
        assert_eq!(value("Description"), ["Two hills  a lake and a pass"]);
        assert_eq!(value("MaxMetal"), ["2.5"]);
        assert_eq!(value("minheight"), ["-120"]);
        assert_eq!(value("maxheight"), ["480.5"]);
        assert_eq!(value("MaxWind"), ["22"]);
        assert_eq!(value("StartPosX"), ["500", "3596"]);
        assert_eq!(value("StartPosZ"), ["612.25", "3483.75"]);
        assert!(text.lines().all(|l| l.starts_with(['[', '{', '}', '\t'])));
    }
}

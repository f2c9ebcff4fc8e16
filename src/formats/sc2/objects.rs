//! The `Objects` file (XML `<PlacedObjects>`): start locations, mineral fields, geysers,
//! destructible rocks, and every other placed unit or doodad (counted so the report can name
//! what was dropped). Positions are SC2 world units (cells), Y north.

use std::collections::BTreeMap;

use crate::formats::FormatError;

/// What a placed object becomes.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectKind {
    /// A mineral patch; `rich` for the `Rich…` fields.
    Mineral { rich: bool },
    /// A vespene geyser: a geothermal vent in BAR.
    Geyser,
    /// A destructible rock (or debris) with its footprint side in cells (guessed from the name).
    Rock { footprint_cells: u32 },
}

/// One object the importer converts.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedObject {
    pub kind: ObjectKind,
    pub unit_type: String,
    pub x: f32,
    pub y: f32,
    /// SC2 rotation in radians (counter-clockwise seen from above), 0 when absent.
    pub rotation_rad: f32,
}

/// A start location.
#[derive(Clone, Debug, PartialEq)]
pub struct StartLocation {
    pub name: String,
    pub id: u64,
    pub x: f32,
    pub y: f32,
}

/// Everything `Objects` holds that matters to the importer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Objects {
    /// Sorted by name, then id, so "Start Location 001" is team 0.
    pub starts: Vec<StartLocation>,
    pub placed: Vec<PlacedObject>,
    /// Other units and doodads by type, with how many of each.
    pub other: BTreeMap<String, usize>,
    /// Objects whose position could not be read.
    pub unreadable: usize,
}

fn position(s: &str) -> Option<(f32, f32)> {
    let mut it = s.split(',').map(|p| p.trim().parse::<f32>().ok());
    let x = it.next()??;
    let y = it.next()??;
    (x.is_finite() && y.is_finite()).then_some((x, y))
}

/// Classifies a unit type by its name.
pub fn classify(unit_type: &str) -> Option<ObjectKind> {
    let t = unit_type.to_ascii_lowercase();
    if t.contains("mineralfield") {
        return Some(ObjectKind::Mineral {
            rich: t.contains("rich"),
        });
    }
    if t.contains("geyser") {
        return Some(ObjectKind::Geyser);
    }
    let rockish = t.contains("rock") || t.contains("debris");
    if rockish && (t.contains("destructible") || t.contains("debris")) {
        return Some(ObjectKind::Rock {
            footprint_cells: rock_footprint(&t),
        });
    }
    None
}

/// A rock's footprint side in cells from names like `DestructibleRock6x6`,
/// `DestructibleDebris4x4`, `…Huge…`; 2 when the name says nothing (`UnbuildableRocksDestructible`).
fn rock_footprint(lower: &str) -> u32 {
    let b = lower.as_bytes();
    for i in 1..b.len().saturating_sub(1) {
        if b[i] == b'x' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit() {
            let n = (b[i - 1] - b'0') as u32;
            let m = (b[i + 1] - b'0') as u32;
            return n.max(m).clamp(1, 9);
        }
    }
    if lower.contains("huge") {
        6
    } else if lower.contains("large") || lower.contains("big") {
        4
    } else {
        2
    }
}

/// Parses `Objects`.
pub fn parse(bytes: &[u8]) -> Result<Objects, FormatError> {
    const WHAT: &str = "SC2Map Objects";
    let text = std::str::from_utf8(bytes)
        .map_err(|_| FormatError::invalid(WHAT, "not UTF-8 text"))?
        .trim_start_matches('\u{feff}');
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| FormatError::invalid(WHAT, format!("not valid XML: {e}")))?;
    let root = doc.root_element();
    if !root.has_tag_name("PlacedObjects") {
        return Err(FormatError::invalid(
            WHAT,
            format!(
                "the root is <{}>, not <PlacedObjects>",
                root.tag_name().name()
            ),
        ));
    }
    let mut out = Objects::default();
    for n in root.children().filter(|n| n.is_element()) {
        let pos = n.attribute("Position").and_then(position);
        let tag = n.tag_name().name();
        match tag {
            "ObjectPoint" if n.attribute("Type") == Some("StartLoc") => {
                let Some((x, y)) = pos else {
                    out.unreadable += 1;
                    continue;
                };
                out.starts.push(StartLocation {
                    name: n.attribute("Name").unwrap_or("").to_string(),
                    id: n.attribute("Id").and_then(|i| i.parse().ok()).unwrap_or(0),
                    x,
                    y,
                });
            }
            "ObjectUnit" => {
                let unit_type = n.attribute("UnitType").unwrap_or("").to_string();
                match (classify(&unit_type), pos) {
                    (Some(kind), Some((x, y))) => out.placed.push(PlacedObject {
                        kind,
                        unit_type,
                        x,
                        y,
                        rotation_rad: n
                            .attribute("Rotation")
                            .and_then(|r| r.parse::<f32>().ok())
                            .filter(|r| r.is_finite())
                            .unwrap_or(0.0),
                    }),
                    (Some(_), None) => out.unreadable += 1,
                    (None, _) => *out.other.entry(format!("unit {unit_type}")).or_default() += 1,
                }
            }
            _ => {
                let what = n
                    .attribute("Type")
                    .or_else(|| n.attribute("UnitType"))
                    .unwrap_or("");
                *out.other
                    .entry(format!("{tag} {what}").trim().to_string())
                    .or_default() += 1;
            }
        }
    }
    out.starts
        .sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_sc2_unit_types() {
        assert_eq!(
            classify("MineralField750"),
            Some(ObjectKind::Mineral { rich: false })
        );
        assert_eq!(
            classify("RichMineralField"),
            Some(ObjectKind::Mineral { rich: true })
        );
        assert_eq!(classify("VespeneGeyser"), Some(ObjectKind::Geyser));
        assert_eq!(
            classify("DestructibleRock6x6"),
            Some(ObjectKind::Rock { footprint_cells: 6 })
        );
        assert_eq!(
            classify("UnbuildableRocksDestructible"),
            Some(ObjectKind::Rock { footprint_cells: 2 })
        );
        assert_eq!(classify("XelNagaTower"), None);
        assert_eq!(classify("Rocks2x2NonConjoined"), None);
    }

    #[test]
    fn parses_starts_in_name_order_and_counts_the_rest() {
        let o = parse(
            br#"<?xml version="1.0" encoding="utf-8"?>
<PlacedObjects Version="27">
    <ObjectUnit Id="1" Position="66,71.5,0" UnitType="MineralField"/>
    <ObjectUnit Id="2" Position="69.5,61.5,0" UnitType="VespeneGeyser"/>
    <ObjectUnit Id="3" Position="48,69,0" Rotation="3.8723" UnitType="UnbuildableRocksDestructible"/>
    <ObjectUnit Id="4" Position="1,1,0" UnitType="XelNagaTower"/>
    <ObjectUnit Id="5" Position="bad" UnitType="MineralField"/>
    <ObjectDoodad Id="6" Position="1,2,0" Type="Tree"/>
    <ObjectPoint Id="9" Position="28.5,60.5,0" Type="StartLoc" Name="Start Location 002"/>
    <ObjectPoint Id="8" Position="59.5,27.5,0" Type="StartLoc" Name="Start Location 001"/>
</PlacedObjects>"#,
        )
        .unwrap();
        assert_eq!(o.starts.len(), 2);
        assert_eq!((o.starts[0].x, o.starts[0].y), (59.5, 27.5));
        assert_eq!(o.placed.len(), 3);
        assert!((o.placed[2].rotation_rad - 3.8723).abs() < 1e-6);
        assert_eq!(o.other.get("unit XelNagaTower"), Some(&1));
        assert_eq!(o.other.get("ObjectDoodad Tree"), Some(&1));
        assert_eq!(o.unreadable, 1);
        assert!(parse(b"<Other/>").is_err());
        assert!(parse(b"\xff\xfe").is_err());
    }
}

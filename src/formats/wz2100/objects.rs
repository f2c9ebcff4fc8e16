//! `struct.json`, `feature.json`, `droid.json`: placed objects, in both the keyed-object form of
//! 4.x maps (`{"structure_0017": {...}}`) and the `{"version": 2, "structures": [...]}` form.

use crate::formats::FormatError;

/// Which file an object list comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Structure,
    Feature,
    Droid,
}

impl ObjectKind {
    fn file(self) -> &'static str {
        match self {
            ObjectKind::Structure => "struct.json",
            ObjectKind::Feature => "feature.json",
            ObjectKind::Droid => "droid.json",
        }
    }
    fn container(self) -> &'static str {
        match self {
            ObjectKind::Structure => "structures",
            ObjectKind::Feature => "features",
            ObjectKind::Droid => "droids",
        }
    }
    /// Droids name their template, the others their stats entry.
    fn name_key(self) -> &'static str {
        match self {
            ObjectKind::Droid => "template",
            _ => "name",
        }
    }
}

/// Who owns an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A skirmish start slot (`"startpos": N`) or a numbered player (`"player": N`).
    Player(i32),
    Scavenger,
    /// Features have no owner.
    None,
}

/// One placed object.
#[derive(Clone, Debug, PartialEq)]
pub struct WzObject {
    pub name: String,
    /// World units (128 per tile), x east.
    pub x: f64,
    /// World units, y south.
    pub y: f64,
    /// 0..65536 is one full turn.
    pub direction: u16,
    pub owner: Owner,
}

/// Objects read, and how many entries were skipped as malformed.
#[derive(Clone, Debug, Default)]
pub struct ObjectList {
    pub objects: Vec<WzObject>,
    pub skipped: usize,
    /// 1 for the keyed-object form, 2 for the `{"version": 2}` form.
    pub format_version: u32,
}

pub fn parse(bytes: &[u8], kind: ObjectKind) -> Result<ObjectList, FormatError> {
    let what = kind.file();
    let root: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| FormatError::invalid(what, format!("not valid JSON: {e}")))?;
    let obj = root
        .as_object()
        .ok_or_else(|| FormatError::invalid(what, "the top level is not a JSON object"))?;
    let mut out = ObjectList {
        format_version: 1,
        ..ObjectList::default()
    };
    let entries: Vec<&serde_json::Value> = match obj.get("version") {
        Some(v) => {
            let ver = v
                .as_u64()
                .ok_or_else(|| FormatError::invalid(what, "\"version\" is not a number"))?;
            if ver != 2 {
                return Err(FormatError::invalid(
                    what,
                    format!(
                        "unsupported file version {ver} (we read the keyed form and version 2)"
                    ),
                ));
            }
            out.format_version = 2;
            let list = obj.get(kind.container()).ok_or_else(|| {
                FormatError::invalid(what, format!("no \"{}\" list", kind.container()))
            })?;
            list.as_array()
                .ok_or_else(|| {
                    FormatError::invalid(what, format!("\"{}\" is not a list", kind.container()))
                })?
                .iter()
                .collect()
        }
        None => obj.values().collect(),
    };
    for e in entries {
        match object(e, kind) {
            Some(o) => out.objects.push(o),
            None => out.skipped += 1,
        }
    }
    Ok(out)
}

fn object(v: &serde_json::Value, kind: ObjectKind) -> Option<WzObject> {
    let o = v.as_object()?;
    let name = o.get(kind.name_key())?.as_str()?.to_string();
    let pos = o.get("position")?.as_array()?;
    let x = pos.first()?.as_f64()?;
    let y = pos.get(1)?.as_f64()?;
    if !x.is_finite() || !y.is_finite() {
        return None;
    }
    let direction = match o.get("rotation") {
        Some(serde_json::Value::Array(a)) => a.first().and_then(|r| r.as_f64()).unwrap_or(0.0),
        Some(r) => r.as_f64().unwrap_or(0.0),
        None => 0.0,
    };
    let direction = (direction.rem_euclid(65536.0)) as u16;
    let owner = match (o.get("player"), o.get("startpos")) {
        (Some(p), _) if p.as_str().is_some_and(|s| s.starts_with("scavenger")) => Owner::Scavenger,
        (Some(p), _) if p.as_i64().is_some() => Owner::Player(p.as_i64()? as i32),
        (_, Some(s)) if s.as_i64().is_some() => Owner::Player(s.as_i64()? as i32),
        _ => Owner::None,
    };
    Some(WzObject {
        name,
        x,
        y,
        direction,
        owner,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_form() {
        let j = br#"{
            "structure_0018": {"name": "A0CommandCentre", "position": [2176, 2304, 242],
                               "rotation": [16384, 0, 0], "startpos": 1},
            "structure_0019": {"name": "A0TankTrap", "position": [1, 2], "player": "scavenger"},
            "structure_0020": {"name": "Broken"}
        }"#;
        let l = parse(j, ObjectKind::Structure).unwrap();
        assert_eq!(l.objects.len(), 2);
        assert_eq!(l.skipped, 1);
        let hq = l
            .objects
            .iter()
            .find(|o| o.name == "A0CommandCentre")
            .unwrap();
        assert_eq!((hq.x, hq.y, hq.direction), (2176.0, 2304.0, 16384));
        assert_eq!(hq.owner, Owner::Player(1));
        assert!(l.objects.iter().any(|o| o.owner == Owner::Scavenger));
    }

    #[test]
    fn version_two_form() {
        let j = br#"{"version": 2, "droids": [
            {"template": "ConstructorDroid", "position": [100, 200], "rotation": 8192, "startpos": 0}
        ]}"#;
        let l = parse(j, ObjectKind::Droid).unwrap();
        assert_eq!(l.format_version, 2);
        assert_eq!(l.objects[0].name, "ConstructorDroid");
        assert_eq!(l.objects[0].direction, 8192);
        assert_eq!(l.objects[0].owner, Owner::Player(0));
    }

    #[test]
    fn bad_json() {
        assert!(parse(b"[1,2]", ObjectKind::Feature).is_err());
        assert!(parse(b"{", ObjectKind::Feature).is_err());
        assert!(parse(br#"{"version": 3, "features": []}"#, ObjectKind::Feature).is_err());
        assert!(parse(br#"{"version": 2}"#, ObjectKind::Feature).is_err());
    }
}

//! `groundwork import GAME SOURCE`: one subcommand per registered importer
//! (`import::IMPORTERS`), its flags made from the importer's own settings, so a new game needs
//! nothing here. Without `-o` it lists the maps SOURCE holds; with it, it imports one (`--map`,
//! or the only one) into a project folder, keeps the import report there and prints it.

use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::import::{IMPORTERS, Importer, SettingKind, Settings};

/// A setting's flag: its key with dashes (`tile_elmos` -> `--tile-elmos`).
fn flag(key: &str) -> String {
    key.replace('_', "-")
}

/// The `import` command, a subcommand per importer.
pub fn command() -> Command {
    let mut import = Command::new("import")
        .about("Import another game's map into a Groundwork project folder")
        .subcommand_required(true)
        .arg_required_else_help(true);
    for importer in IMPORTERS {
        import = import.subcommand(importer_command(*importer));
    }
    import
}

fn importer_command(importer: &dyn Importer) -> Command {
    // "Warzone 2100 map (folder)" -> "map (folder)" after the game's name
    let kinds: Vec<&str> = importer
        .file_kinds()
        .iter()
        .map(|k| {
            k.0.strip_prefix(importer.game())
                .unwrap_or(k.0)
                .trim_start()
        })
        .collect();
    let mut c = Command::new(importer.id())
        .about(format!("{}: {}", importer.game(), kinds.join(" or ")))
        .arg(
            Arg::new("source")
                .value_name("SOURCE")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf))
                .help("The map, or the archive or folder holding maps"),
        )
        .arg(
            Arg::new("map")
                .long("map")
                .value_name("NAME")
                .help("The map to import when SOURCE holds several (as the listing names it)"),
        )
        .arg(
            Arg::new("output")
                .short('o')
                .long("output")
                .value_name("PROJECT")
                .value_parser(clap::value_parser!(PathBuf))
                .help("The project folder to create; without it, the maps in SOURCE are listed"),
        );
    for spec in importer.settings() {
        let arg = Arg::new(spec.key)
            .long(flag(spec.key))
            .action(ArgAction::Set);
        let arg = arg.help(spec.described());
        c = c.arg(match spec.kind {
            SettingKind::Number { .. } => {
                arg.value_name("N").value_parser(clap::value_parser!(f32))
            }
            SettingKind::Choice { options, .. } => arg
                .value_name("WORD")
                .value_parser(options.iter().map(|o| o.0).collect::<Vec<_>>()),
            SettingKind::Path => arg
                .value_name("PATH")
                .value_parser(clap::value_parser!(PathBuf)),
        });
    }
    c
}

/// Runs `import GAME ...`; the error is one line for the user.
pub fn run(matches: &ArgMatches) -> Result<(), String> {
    let (id, m) = matches.subcommand().ok_or("name the game to import from")?;
    let importer = crate::import::find(id).ok_or_else(|| format!("no importer called {id}"))?;
    let source = m
        .get_one::<PathBuf>("source")
        .ok_or("say which map to import")?;
    let name = m.get_one::<String>("map").map(String::as_str);
    let settings = settings_from(importer, m)?;
    let Some(out) = m.get_one::<PathBuf>("output") else {
        return list(importer, source);
    };
    eprintln!(
        "importing {}{} ...",
        name.map(|n| format!("{n} from ")).unwrap_or_default(),
        source.display()
    );
    super::import_and_save(importer, source, name, &settings, out)?;
    eprintln!("project: {}", out.display());
    Ok(())
}

/// The importer's settings as the flags set them; unset ones keep their defaults.
fn settings_from(importer: &dyn Importer, m: &ArgMatches) -> Result<Settings, String> {
    let mut settings = Settings::default();
    for spec in importer.settings() {
        match spec.kind {
            SettingKind::Number { min, max, .. } => {
                if let Some(&v) = m.get_one::<f32>(spec.key) {
                    if !(min..=max).contains(&v) {
                        return Err(format!(
                            "--{} {v} is outside {min} to {max}",
                            flag(spec.key)
                        ));
                    }
                    settings.set_number(spec.key, v);
                }
            }
            SettingKind::Choice { .. } => {
                if let Some(w) = m.get_one::<String>(spec.key) {
                    settings.set_word(spec.key, w);
                }
            }
            SettingKind::Path => {
                if let Some(p) = m.get_one::<PathBuf>(spec.key) {
                    settings.set_word(spec.key, &p.to_string_lossy());
                }
            }
        }
    }
    Ok(settings)
}

/// Prints the maps `source` holds, a column per fact the importer gives, and what to type next.
fn list(importer: &dyn Importer, source: &std::path::Path) -> Result<(), String> {
    use std::io::Write as _;
    let maps = importer.list(source).map_err(|e| e.to_string())?;
    let mut header: Vec<&str> = vec!["map", "title"];
    header.extend(
        maps.first()
            .map_or(vec![], |m| m.facts.iter().map(|f| f.0).collect()),
    );
    header.push("status");
    let rows: Vec<Vec<String>> = maps
        .iter()
        .map(|m| {
            let mut row = vec![m.name.clone(), m.title.clone()];
            row.extend(m.facts.iter().map(|f| f.1.clone()));
            row.push(match &m.importable {
                Ok(()) => "importable".into(),
                Err(why) => why.clone(),
            });
            row
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    // a closed pipe (`| head`) ends the listing quietly
    let mut o = std::io::stdout().lock();
    let line = |cells: Vec<&str>| {
        let last = cells.len() - 1;
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == last {
                    c.to_string()
                } else {
                    format!("{c:<w$}", w = widths[i])
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let _ = writeln!(o, "{}", line(header.clone()));
    for r in &rows {
        let _ = writeln!(o, "{}", line(r.iter().map(String::as_str).collect()));
    }
    let ok = maps.iter().filter(|m| m.importable.is_ok()).count();
    let _ = writeln!(
        o,
        "\n{} map{}, {ok} importable. Import one with{} -o PROJECT.",
        maps.len(),
        if maps.len() == 1 { "" } else { "s" },
        if maps.len() > 1 { " --map NAME" } else { "" }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_importer_gets_a_subcommand_with_a_flag_per_setting() {
        let import = command();
        for importer in IMPORTERS {
            let sub = import
                .find_subcommand(importer.id())
                .unwrap_or_else(|| panic!("no import {}", importer.id()));
            for spec in importer.settings() {
                assert!(
                    sub.get_arguments()
                        .any(|a| a.get_long() == Some(flag(spec.key).as_str())),
                    "import {} has no --{}",
                    importer.id(),
                    flag(spec.key)
                );
            }
        }
    }

    #[test]
    fn flags_become_the_importers_settings() {
        let m = command()
            .try_get_matches_from([
                "import",
                "sc2",
                "x.SC2Map",
                "--cell-elmos",
                "48",
                "--chasm",
                "sea",
                "-o",
                "out",
            ])
            .unwrap();
        let (id, m) = m.subcommand().unwrap();
        let sc2 = crate::import::find(id).unwrap();
        let s = settings_from(sc2, m).unwrap();
        assert_eq!(s.number(sc2.settings(), "cell_elmos"), 48.0);
        assert_eq!(s.word(sc2.settings(), "chasm"), "sea");
        assert_eq!(s.word(sc2.settings(), "texture"), "layers", "the default");
        let m = command()
            .try_get_matches_from(["import", "sc2", "x.SC2Map", "--cell-elmos", "999"])
            .unwrap();
        let e = settings_from(sc2, m.subcommand().unwrap().1).unwrap_err();
        assert!(e.contains("--cell-elmos 999 is outside 8 to 256"), "{e}");
        assert!(
            command()
                .try_get_matches_from(["import", "sc2", "x", "--chasm", "lava"])
                .is_err()
        );
    }
}

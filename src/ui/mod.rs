//! The editor's window: egui panels, one module each (a struct with a `ui` method, state kept
//! with the panel that owns it), and the app that wires them to the document, the GPU view
//! and the worker jobs.

pub mod app;
pub mod autosave;
pub mod document;
pub mod export_dialog;
pub mod feature_models;
pub mod feature_view;
pub mod features_panel;
mod file_browser;
pub mod file_dialog;
pub mod generate_window;
pub mod jobs;
pub mod layers_panel;
pub mod log_panel;
pub mod metal_panel;
pub mod minimap_panel;
pub mod new_map_dialog;
pub mod pathing_panel;
pub mod properties_panel;
pub mod recent;
pub mod resize_dialog;
pub mod starts_panel;
pub mod status_bar;
pub mod tools_panel;
pub mod viewport;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub use app::EditorApp;

/// How the editor was asked to start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditorOptions {
    /// A map or project to open instead of the starter map.
    pub open: Option<PathBuf>,
    /// Draw this many frames once the map is shown, save a screenshot there, and exit.
    pub screenshot: Option<(PathBuf, u32)>,
    /// Export into this maps folder, instead of looking for the games (tests).
    pub maps_folder: Option<PathBuf>,
    /// The water moves (the command line's editor; tests keep it still, so pictures repeat).
    pub animate_water: bool,
    /// Where the recent-files list and the export folder are kept, instead of the user's
    /// config folder (tests).
    pub config_dir: Option<PathBuf>,
    /// File dialogs use the in-app browser even where the system's could open (tests).
    pub in_app_file_dialogs: bool,
    /// The tool chosen at the start (`--tool raise`, `--tool "Place feature"`), as the Tools
    /// panel names it; for screenshots of a tool's settings.
    pub tool: Option<String>,
    /// A window opened once the map is shown (`--window generate`, `--window resize`), as
    /// the Map menu opens it; for screenshots of it.
    pub window: Option<String>,
    /// The engine Try in game (F5) runs (`--engine PATH`); `None`: `$GROUNDWORK_ENGINE`, BAR's
    /// engine, then Spring's.
    pub engine: Option<PathBuf>,
}

impl EditorOptions {
    /// Parses the editor's own arguments (`PATH`, `--screenshot PATH`, `--frames N`); `None`
    /// when they are not the editor's (`--help`, two paths), so the CLI should take them.
    /// `main` sends subcommands to the CLI before asking.
    pub fn from_args(args: &[String]) -> Option<Result<EditorOptions, String>> {
        let mut o = EditorOptions {
            animate_water: true,
            ..EditorOptions::default()
        };
        let mut frames = None;
        let mut shot = None;
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            match a.as_str() {
                "--screenshot" | "--frames" | "--tool" | "--engine" | "--window" => {
                    let Some(v) = args.get(i + 1) else {
                        return Some(Err(format!("{a} needs a value")));
                    };
                    if a == "--tool" {
                        o.tool = Some(v.clone());
                    } else if a == "--window" {
                        if !matches!(v.as_str(), "generate" | "resize") {
                            return Some(Err(format!("--window {v}: expected generate or resize")));
                        }
                        o.window = Some(v.clone());
                    } else if a == "--engine" {
                        o.engine = Some(PathBuf::from(v));
                    } else if a == "--screenshot" {
                        shot = Some(PathBuf::from(v));
                    } else {
                        match v.parse::<u32>() {
                            Ok(n) if n >= 1 => frames = Some(n),
                            _ => {
                                return Some(Err(format!(
                                    "--frames {v}: expected a whole number of at least 1"
                                )));
                            }
                        }
                    }
                    i += 2;
                    continue;
                }
                s if s.starts_with('-') => return None,
                _ => {
                    if o.open.is_some() {
                        return None;
                    }
                    o.open = Some(PathBuf::from(a));
                }
            }
            i += 1;
        }
        match (shot, frames) {
            (Some(p), f) => o.screenshot = Some((p, f.unwrap_or(10))),
            (None, Some(_)) => return Some(Err("--frames goes with --screenshot PATH".into())),
            (None, None) => {}
        }
        Some(Ok(o))
    }
}

/// The window options: the wgpu backend, with a device that has the adapter's real limits.
fn native_options() -> eframe::NativeOptions {
    let mut setup = egui_wgpu::WgpuSetupCreateNew::without_display_handle();
    setup.device_descriptor = Arc::new(crate::gpu::context::device_descriptor);
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Groundwork")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        renderer: eframe::Renderer::Wgpu,
        wgpu_options: egui_wgpu::WgpuConfiguration {
            wgpu_setup: egui_wgpu::WgpuSetup::CreateNew(setup),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Opens the editor window and runs it until it closes; returns the process exit code.
pub fn run_editor(options: EditorOptions) -> i32 {
    let outcome: Arc<Mutex<Option<Result<(), String>>>> = Arc::new(Mutex::new(None));
    let out = outcome.clone();
    let result = eframe::run_native(
        "Groundwork",
        native_options(),
        Box::new(move |cc| Ok(Box::new(EditorApp::new(cc, options, out)))),
    );
    if let Err(e) = result {
        eprintln!("error: the editor window could not run: {e}");
        return 1;
    }
    match outcome.lock().ok().and_then(|mut o| o.take()) {
        Some(Err(e)) => {
            eprintln!("error: {e}");
            1
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn editor_arguments() {
        assert_eq!(
            EditorOptions::from_args(&[]),
            Some(Ok(EditorOptions {
                animate_water: true,
                ..EditorOptions::default()
            }))
        );
        let o = EditorOptions::from_args(&args(&["maps/a.sd7"]))
            .unwrap()
            .unwrap();
        assert_eq!(o.open, Some(PathBuf::from("maps/a.sd7")));
        let o = EditorOptions::from_args(&args(&["--screenshot", "s.png", "--frames", "5"]))
            .unwrap()
            .unwrap();
        assert_eq!(o.screenshot, Some((PathBuf::from("s.png"), 5)));
        let o = EditorOptions::from_args(&args(&["--window", "generate"]))
            .unwrap()
            .unwrap();
        assert_eq!(o.window.as_deref(), Some("generate"));
        assert!(
            EditorOptions::from_args(&args(&["--window", "nope"]))
                .unwrap()
                .is_err()
        );
        assert!(EditorOptions::from_args(&args(&["a.sd7", "b.sd7"])).is_none());
        assert!(EditorOptions::from_args(&args(&["--help"])).is_none());
        assert!(
            EditorOptions::from_args(&args(&["--frames", "0", "--screenshot", "a"]))
                .unwrap()
                .is_err()
        );
        assert!(
            EditorOptions::from_args(&args(&["--frames", "3"]))
                .unwrap()
                .is_err()
        );
    }
}

//! File dialogs: the system's (rfd, on its own thread so the window keeps drawing) where one can
//! open, else the in-app browser (`file_browser`) drawn in the window, with a line saying why. On
//! Linux and the BSDs rfd asks the XDG desktop portal over D-Bus and then runs zenity; with
//! neither it returns nothing at once, which reads as a cancel, so the editor checks first
//! (`system_dialog_missing`) and also takes a dialog that closes at once for one that cannot open.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

pub use super::file_browser::Pick;
use super::file_browser::{FileBrowser, Outcome};

/// A system dialog answering "nothing" sooner than this did not open.
const IMMEDIATE_FAILURE: Duration = Duration::from_millis(400);

/// One dialog to show.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub title: String,
    pub pick: Pick,
}

impl Request {
    pub fn new(title: impl Into<String>, pick: Pick) -> Request {
        Request {
            title: title.into(),
            pick,
        }
    }
}

/// How a dialog ended, with what it was opened for.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer<K> {
    Picked(K, PathBuf),
    Cancelled(K),
}

/// What decides whether the system's dialog can open on Linux and the BSDs.
#[derive(Clone, Debug, Default)]
struct DialogEnv {
    /// The folders of `PATH`, where zenity would be.
    path_dirs: Vec<PathBuf>,
    /// A D-Bus session bus is there (`DBUS_SESSION_BUS_ADDRESS`, or `$XDG_RUNTIME_DIR/bus`).
    session_bus: bool,
    /// `XDG_DATA_HOME` and `XDG_DATA_DIRS`, where the portal's D-Bus service and its back ends
    /// are declared.
    data_dirs: Vec<PathBuf>,
    /// Running in a Flatpak sandbox, where the portal is the host's.
    sandboxed: bool,
}

impl DialogEnv {
    /// This process's environment.
    fn current() -> DialogEnv {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        let path_dirs = var("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        let session_bus = var("DBUS_SESSION_BUS_ADDRESS").is_some()
            || var("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).join("bus").exists());
        let mut data_dirs = Vec::new();
        match var("XDG_DATA_HOME") {
            Some(d) => data_dirs.push(PathBuf::from(d)),
            None => {
                if let Some(home) = var("HOME") {
                    data_dirs.push(Path::new(&home).join(".local/share"));
                }
            }
        }
        match var("XDG_DATA_DIRS") {
            Some(d) => data_dirs.extend(std::env::split_paths(&d)),
            None => data_dirs.extend(["/usr/local/share", "/usr/share"].map(PathBuf::from)),
        }
        DialogEnv {
            path_dirs,
            session_bus,
            data_dirs,
            sandboxed: Path::new("/.flatpak-info").exists(),
        }
    }
}

/// Why the system's file dialog cannot open in `env`, or `None` when it can: zenity on the
/// `PATH`, or a session bus with the desktop portal installed and a back end that declares
/// the file chooser.
fn system_dialog_missing(env: &DialogEnv) -> Option<String> {
    if env.sandboxed || env.path_dirs.iter().any(|d| d.join("zenity").is_file()) {
        return None;
    }
    if !env.session_bus {
        return Some("no D-Bus session bus for the desktop portal, and no zenity".into());
    }
    let portal = env.data_dirs.iter().any(|d| {
        d.join("dbus-1/services/org.freedesktop.portal.Desktop.service")
            .is_file()
    });
    if !portal {
        return Some("no XDG desktop portal installed, and no zenity".into());
    }
    let chooser = env.data_dirs.iter().any(|d| {
        std::fs::read_dir(d.join("xdg-desktop-portal/portals")).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                std::fs::read_to_string(e.path())
                    .is_ok_and(|s| s.contains("org.freedesktop.impl.portal.FileChooser"))
            })
        })
    });
    if !chooser {
        return Some(
            "the desktop portal has no file chooser back end (such as xdg-desktop-portal-gtk), and no zenity"
                .into(),
        );
    }
    None
}

/// Why the system's dialog cannot open on this computer, or `None`.
fn system_dialog_missing_here() -> Option<String> {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "dragonfly",
        target_os = "netbsd",
        target_os = "openbsd"
    )) {
        system_dialog_missing(&DialogEnv::current())
    } else {
        None
    }
}

enum Running<K> {
    System {
        kind: K,
        request: Request,
        answer: Receiver<Option<PathBuf>>,
        started: Instant,
    },
    InApp {
        kind: K,
        browser: Box<FileBrowser>,
    },
}

/// The file dialogs of one part of the window (one open at a time), `K` saying what each is for.
pub struct FileDialogs<K> {
    /// Why the in-app browser is used instead of the system's dialog; `None` while the system's
    /// is used (or not yet asked about).
    in_app: Option<String>,
    checked: bool,
    running: Option<Running<K>>,
    notices: Vec<String>,
    /// The system's dialog (rfd; a stand-in in tests).
    system: fn(&Request) -> Option<PathBuf>,
}

impl<K> std::fmt::Debug for FileDialogs<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileDialogs")
            .field("in_app", &self.in_app)
            .field("open", &self.running.is_some())
            .finish()
    }
}

impl<K> Default for FileDialogs<K> {
    fn default() -> Self {
        FileDialogs {
            in_app: None,
            checked: false,
            running: None,
            notices: Vec::new(),
            system: system_dialog,
        }
    }
}

impl<K: Clone + Send + 'static> FileDialogs<K> {
    /// Dialogs that always use the in-app browser (a test, or the user's choice), saying why.
    pub fn in_app_only(why: impl Into<String>) -> Self {
        FileDialogs {
            in_app: Some(why.into()),
            checked: true,
            ..FileDialogs::default()
        }
    }

    /// Whether a dialog is open.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// Lines for the log: which dialog is used and why.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Opens a dialog for `kind`, unless one is open already.
    pub fn open(&mut self, kind: K, request: Request, ctx: &egui::Context) {
        if self.running.is_some() {
            return;
        }
        if !self.checked {
            self.checked = true;
            if let Some(why) = system_dialog_missing_here() {
                self.use_in_app(format!(
                    "the system's file dialog cannot open here ({why}): using the in-app file browser"
                ));
            }
        }
        if self.in_app.is_some() {
            self.open_in_app(kind, &request);
            return;
        }
        let (tx, rx) = channel();
        let repaint = ctx.clone();
        let asked = request.clone();
        let system = self.system;
        let spawned = std::thread::Builder::new()
            .name("file dialog".into())
            .spawn(move || {
                let _ = tx.send(system(&asked));
                repaint.request_repaint();
            });
        match spawned {
            Ok(_) => {
                self.running = Some(Running::System {
                    kind,
                    request,
                    answer: rx,
                    started: Instant::now(),
                })
            }
            Err(e) => {
                self.use_in_app(format!(
                    "the system's file dialog cannot open ({e}): using the in-app file browser"
                ));
                self.open_in_app(kind, &request);
            }
        }
    }

    /// Call every frame: draws the in-app browser and picks up an answer.
    pub fn poll(&mut self, ctx: &egui::Context) -> Option<Answer<K>> {
        match self.running.as_mut()? {
            Running::System {
                answer, started, ..
            } => {
                let picked = match answer.try_recv() {
                    Ok(p) => p,
                    Err(TryRecvError::Empty) => return None,
                    Err(TryRecvError::Disconnected) => None,
                };
                let quick = started.elapsed() < IMMEDIATE_FAILURE;
                let Some(Running::System { kind, request, .. }) = self.running.take() else {
                    unreachable!("matched above")
                };
                match picked {
                    Some(path) => Some(Answer::Picked(kind, path)),
                    None if quick => {
                        self.use_in_app(
                            "the system's file dialog closed at once (no desktop portal or zenity?): using the in-app file browser"
                                .to_string(),
                        );
                        self.open_in_app(kind, &request);
                        None
                    }
                    None => Some(Answer::Cancelled(kind)),
                }
            }
            Running::InApp { browser, .. } => {
                let outcome = browser.show(ctx)?;
                let Some(Running::InApp { kind, .. }) = self.running.take() else {
                    unreachable!("matched above")
                };
                Some(match outcome {
                    Outcome::Picked(path) => Answer::Picked(kind, path),
                    Outcome::Cancelled => Answer::Cancelled(kind),
                })
            }
        }
    }

    fn use_in_app(&mut self, why: String) {
        self.notices.push(why.clone());
        self.in_app = Some(why);
    }

    fn open_in_app(&mut self, kind: K, request: &Request) {
        let browser = FileBrowser::new(&request.title, request.pick.clone(), start_dir());
        self.running = Some(Running::InApp {
            kind,
            browser: Box::new(browser),
        });
    }
}

/// Where the in-app browser starts: the home folder, else the working folder.
fn start_dir() -> PathBuf {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default()
}

/// The system's dialog for `request`, blocking until it closes.
fn system_dialog(request: &Request) -> Option<PathBuf> {
    let d = rfd::FileDialog::new().set_title(&request.title);
    match &request.pick {
        Pick::File(filters) => filters
            .iter()
            .fold(d, |d, (label, ext)| d.add_filter(label, ext))
            .pick_file(),
        Pick::Folder => d.pick_folder(),
        Pick::Save(name) => d.set_file_name(name).save_file(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn the_system_dialog_needs_a_portal_with_a_file_chooser_or_zenity() {
        let root = tempfile::tempdir().unwrap();
        let bin = root.path().join("bin");
        let share = root.path().join("share");
        std::fs::create_dir_all(&bin).unwrap();
        let mut env = DialogEnv {
            path_dirs: vec![bin.clone()],
            session_bus: false,
            data_dirs: vec![share.clone()],
            sandboxed: false,
        };
        let why = system_dialog_missing(&env).expect("nothing to show a dialog with");
        assert!(why.contains("D-Bus"), "{why}");

        env.session_bus = true;
        let why = system_dialog_missing(&env).expect("a bus but no portal");
        assert!(why.contains("no XDG desktop portal"), "{why}");

        write(
            &share.join("dbus-1/services/org.freedesktop.portal.Desktop.service"),
            "[D-BUS Service]\nName=org.freedesktop.portal.Desktop\n",
        );
        write(
            &share.join("xdg-desktop-portal/portals/wlr.portal"),
            "[portal]\nInterfaces=org.freedesktop.impl.portal.Screenshot\n",
        );
        let why = system_dialog_missing(&env).expect("a portal without a file chooser");
        assert!(why.contains("no file chooser"), "{why}");

        write(
            &share.join("xdg-desktop-portal/portals/gtk.portal"),
            "[portal]\nInterfaces=org.freedesktop.impl.portal.FileChooser;\n",
        );
        assert_eq!(system_dialog_missing(&env), None);

        // zenity alone does it, bus or not
        let alone = DialogEnv {
            path_dirs: vec![bin.clone()],
            ..DialogEnv::default()
        };
        assert!(system_dialog_missing(&alone).is_some());
        write(&bin.join("zenity"), "#!/bin/sh\n");
        assert_eq!(system_dialog_missing(&alone), None);
    }

    /// One frame of `dialogs` with `events`; its answer, if any.
    fn frame(
        dialogs: &mut FileDialogs<u8>,
        ctx: &egui::Context,
        events: Vec<egui::Event>,
    ) -> Option<Answer<u8>> {
        let mut answer = None;
        let input = egui::RawInput {
            events,
            ..Default::default()
        };
        let mut out = ctx.run_ui(input, |ui| answer = dialogs.poll(ui.ctx()));
        out.textures_delta.clear();
        answer
    }

    /// Steps `dialogs` for up to a second, until it answers.
    fn wait_for(dialogs: &mut FileDialogs<u8>, ctx: &egui::Context) -> Option<Answer<u8>> {
        for _ in 0..100 {
            let answer = frame(dialogs, ctx, Vec::new());
            if answer.is_some() {
                return answer;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    #[test]
    fn a_system_dialog_that_closes_at_once_gives_way_to_the_in_app_browser() {
        let ctx = egui::Context::default();
        let mut dialogs = FileDialogs::<u8> {
            checked: true,
            system: |_| None,
            ..FileDialogs::default()
        };
        dialogs.open(3, Request::new("Save", Pick::Save("m".into())), &ctx);
        assert_eq!(
            wait_for(&mut dialogs, &ctx),
            None,
            "no answer: a browser instead"
        );
        assert!(
            dialogs.busy(),
            "the in-app browser is open for the same request"
        );
        let notices = dialogs.take_notices();
        assert!(
            notices.iter().any(|n| n.contains("closed at once")),
            "{notices:?}"
        );
        // from now on the browser, without trying the system's again
        assert!(dialogs.in_app.is_some());

        // a system dialog that answers is used as it is
        let mut dialogs = FileDialogs::<u8> {
            checked: true,
            system: |_| Some(PathBuf::from("picked")),
            ..FileDialogs::default()
        };
        dialogs.open(4, Request::new("Open", Pick::Folder), &ctx);
        assert_eq!(
            wait_for(&mut dialogs, &ctx),
            Some(Answer::Picked(4, PathBuf::from("picked")))
        );
        assert!(dialogs.take_notices().is_empty());
    }

    #[test]
    fn the_in_app_browser_is_used_when_forced_and_cancels_with_escape() {
        let ctx = egui::Context::default();
        let mut dialogs = FileDialogs::in_app_only("asked for");
        let run = |dialogs: &mut FileDialogs<u8>, events| frame(dialogs, &ctx, events);
        dialogs.open(7, Request::new("Pick", Pick::Folder), &ctx);
        assert!(dialogs.busy());
        assert_eq!(run(&mut dialogs, Vec::new()), None);
        let escape = egui::Event::Key {
            key: egui::Key::Escape,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        };
        let mut answer = None;
        for _ in 0..3 {
            answer = answer.or(run(&mut dialogs, vec![escape.clone()]));
        }
        assert_eq!(answer, Some(Answer::Cancelled(7)));
        assert!(!dialogs.busy());
    }
}

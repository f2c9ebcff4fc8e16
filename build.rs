//! Build script: intel_tex_2's prebuilt ISPC archives for Linux contain C++ objects (its ASTC
//! encoder), so the C++ runtime must be linked when the `ispc` feature is on.

fn main() {
    let ispc = std::env::var_os("CARGO_FEATURE_ISPC").is_some();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if ispc && (os == "linux" || os == "android") {
        println!("cargo:rustc-link-lib=dylib=stdc++");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

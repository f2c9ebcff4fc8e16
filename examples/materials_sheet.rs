//! Writes a contact sheet of the built-in ground materials as a PNG: one row per material
//! (grass, rock, sand, dirt, snow, mud), its diffuse and then its detail normal (RGB; the
//! alpha detail beside them in grey), each 256 texels tiled 2 x 2 so that a seam would show.
//!
//! `cargo run --release --example materials_sheet -- sheet.png [TEXELS]`

use groundwork::map::materials::{BuiltinMaterial, check_texels};

const GAP: usize = 8;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: materials_sheet OUT.png [TEXELS]");
        std::process::exit(2);
    };
    let texels = match args.get(1).map(|s| s.parse::<usize>()) {
        None => 256,
        Some(Ok(t)) => t,
        Some(Err(_)) => {
            eprintln!("error: TEXELS must be a number, not {:?}", args[1]);
            std::process::exit(2);
        }
    };
    if let Err(e) = check_texels(texels) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
    let tile = texels * 2;
    let columns = 3;
    let width = columns * tile + (columns + 1) * GAP;
    let height = BuiltinMaterial::ALL.len() * tile + (BuiltinMaterial::ALL.len() + 1) * GAP;
    let mut sheet = image::RgbImage::from_pixel(width as u32, height as u32, image::Rgb([32; 3]));
    let t0 = std::time::Instant::now();
    for (row, m) in BuiltinMaterial::ALL.iter().enumerate() {
        let diffuse = m.diffuse(texels);
        let normal = m.detail_normal(texels);
        let y0 = GAP + row * (tile + GAP);
        let pictures: [(&[u8], bool); 3] = [(&diffuse, false), (&normal, false), (&normal, true)];
        for (col, (px, alpha)) in pictures.into_iter().enumerate() {
            let x0 = GAP + col * (tile + GAP);
            for y in 0..tile {
                for x in 0..tile {
                    let p = &px[((y % texels) * texels + (x % texels)) * 4..][..4];
                    let rgb = if alpha { [p[3]; 3] } else { [p[0], p[1], p[2]] };
                    sheet.put_pixel((x0 + x) as u32, (y0 + y) as u32, image::Rgb(rgb));
                }
            }
        }
        eprintln!("{}", m.name());
    }
    eprintln!(
        "made {} materials at {texels} texels in {:.0} ms",
        BuiltinMaterial::ALL.len(),
        t0.elapsed().as_secs_f64() * 1000.0
    );
    if let Err(e) = sheet.save(path) {
        eprintln!("error: cannot write {path}: {e}");
        std::process::exit(1);
    }
}

//! The project's layer images: 16-bit grey heights, RGB(A) texture, 8-bit grey metal, grass and
//! type maps. Each is checked against the size the map needs, naming the file and that size.
//! The texture is decoded once, straight into the document's RGBA buffer.

use rayon::prelude::*;
use std::io::{BufRead, BufWriter, Seek};
use std::path::{Path, PathBuf};

use crate::formats::FormatError;
use crate::formats::bytes::ByteReader;

fn png_error(path: &Path, e: impl std::fmt::Display) -> FormatError {
    FormatError::invalid(
        path.display().to_string(),
        format!("cannot read the PNG: {e}"),
    )
}

fn wrong_size(path: &Path, got: (usize, usize), want: (usize, usize), why: &str) -> FormatError {
    FormatError::invalid(
        path.display().to_string(),
        format!(
            "is {}x{}, but it must be {}x{} ({why})",
            got.0, got.1, want.0, want.1
        ),
    )
}

/// A buffered, seekable source of a layer's bytes: a file, or bytes built into the binary.
pub(super) trait ReadSeek: BufRead + Seek + Send {}
impl<T: BufRead + Seek + Send> ReadSeek for T {}

/// One layer image to read: its bytes, their length, and the path errors name it by.
pub(super) struct LayerFile {
    reader: Box<dyn ReadSeek>,
    len: u64,
    pub path: PathBuf,
}

impl LayerFile {
    pub fn open(path: &Path) -> Result<LayerFile, FormatError> {
        let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, e))?;
        let len = file.metadata().map_err(|e| FormatError::io(path, e))?.len();
        Ok(LayerFile {
            reader: Box::new(std::io::BufReader::with_capacity(1 << 20, file)),
            len,
            path: path.to_path_buf(),
        })
    }

    /// Bytes held in memory, named `path` in errors.
    pub fn in_memory(path: PathBuf, bytes: &'static [u8]) -> LayerFile {
        LayerFile {
            reader: Box::new(std::io::Cursor::new(bytes)),
            len: bytes.len() as u64,
            path,
        }
    }
}

type PngReader = png::Reader<Box<dyn ReadSeek>>;

/// Opens a PNG with 16-bit samples kept and palettes expanded.
fn open_png(file: LayerFile, keep_16: bool) -> Result<(PngReader, PathBuf), FormatError> {
    let mut decoder = png::Decoder::new(file.reader);
    decoder.set_transformations(if keep_16 {
        png::Transformations::EXPAND
    } else {
        png::Transformations::normalize_to_color8()
    });
    // a header may claim any size; the caller checks it before anything is decoded
    decoder.set_limits(png::Limits { bytes: 4 << 30 });
    let reader = decoder.read_info().map_err(|e| png_error(&file.path, e))?;
    Ok((reader, file.path))
}

/// Opens a PNG and checks its size before anything is decoded.
fn open_png_sized(
    file: LayerFile,
    keep_16: bool,
    want: (usize, usize),
    why: &str,
) -> Result<(PngReader, PathBuf), FormatError> {
    let (reader, path) = open_png(file, keep_16)?;
    let info = reader.info();
    let got = (info.width as usize, info.height as usize);
    if got != want {
        return Err(wrong_size(&path, got, want, why));
    }
    Ok((reader, path))
}

/// The whole image and its row stride in bytes.
fn read_frame(reader: &mut PngReader, path: &Path) -> Result<(Vec<u8>, usize), FormatError> {
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| png_error(path, "too large"))?;
    let mut buf = vec![0u8; size];
    let frame = reader
        .next_frame(&mut buf)
        .map_err(|e| png_error(path, e))?;
    Ok((buf, frame.line_size))
}

/// Reads the heightmap as raw engine words. 16-bit grey is exact; 8-bit grey is accepted with a
/// warning (it terraces), scaled so 255 means 65535.
pub(super) fn read_height_words(
    file: LayerFile,
    want: (usize, usize),
    warnings: &mut Vec<String>,
) -> Result<Vec<u16>, FormatError> {
    let (mut reader, path) = open_png_sized(
        file,
        true,
        want,
        "64 x map units + 1 per side: one pixel per height vertex",
    )?;
    let (color, depth) = reader.output_color_type();
    let channels = color.samples();
    let (buf, stride) = read_frame(&mut reader, &path)?;
    if !matches!(
        color,
        png::ColorType::Grayscale | png::ColorType::GrayscaleAlpha
    ) {
        warnings.push(format!(
            "{} is in colour; its first channel is used as the height",
            path.display()
        ));
    }
    let mut words = Vec::with_capacity(want.0 * want.1);
    for row in buf.chunks(stride).take(want.1) {
        for x in 0..want.0 {
            let w = match depth {
                png::BitDepth::Sixteen => {
                    let i = x * channels * 2;
                    u16::from_be_bytes([row[i], row[i + 1]])
                }
                _ => row[x * channels] as u16 * 257,
            };
            words.push(w);
        }
    }
    if depth != png::BitDepth::Sixteen {
        warnings.push(format!(
            "{} is 8-bit: only 256 height levels, slopes will terrace; save it as 16-bit grey",
            path.display()
        ));
    }
    Ok(words)
}

/// The largest side a brush mask, stamp or imported heightmap may have.
pub const MAX_GREY_SIDE: usize = 16385;

/// Reads any PNG as grey values 0..=1 (16-bit precision kept; colour images use their first
/// channel), for brush masks, stamps and imported heightmaps. Row 0 is the image's top.
pub fn read_grey_unit(path: &Path) -> Result<crate::map::Grid<f32>, FormatError> {
    let (mut reader, path) = open_png(LayerFile::open(path)?, true)?;
    let info = reader.info();
    let (w, h) = (info.width as usize, info.height as usize);
    if w == 0 || h == 0 || w > MAX_GREY_SIDE || h > MAX_GREY_SIDE {
        return Err(FormatError::invalid(
            path.display().to_string(),
            format!(
                "is {w}x{h}; a greyscale image here must be 1 to {MAX_GREY_SIDE} pixels a side"
            ),
        ));
    }
    let (color, depth) = reader.output_color_type();
    let channels = color.samples();
    let (buf, stride) = read_frame(&mut reader, &path)?;
    let mut values = Vec::with_capacity(w * h);
    for row in buf.chunks(stride).take(h) {
        for x in 0..w {
            values.push(match depth {
                png::BitDepth::Sixteen => {
                    let i = x * channels * 2;
                    u16::from_be_bytes([row[i], row[i + 1]]) as f32 / 65535.0
                }
                _ => row[x * channels] as f32 / 255.0,
            });
        }
    }
    crate::map::Grid::from_vec(w, h, values).ok_or_else(|| png_error(&path, "short image data"))
}

/// Reads an 8-bit layer (metal, grass, type). Grey is required, except that a colour metal map
/// uses its red channel (the classic Spring convention), with a warning.
pub(super) fn read_byte_layer(
    file: LayerFile,
    want: (usize, usize),
    why: &str,
    allow_red_channel: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<u8>, FormatError> {
    let (mut reader, path) = open_png_sized(file, false, want, why)?;
    let (color, _) = reader.output_color_type();
    let grey = matches!(
        color,
        png::ColorType::Grayscale | png::ColorType::GrayscaleAlpha
    );
    if !grey && !allow_red_channel {
        return Err(FormatError::invalid(
            path.display().to_string(),
            "must be 8-bit greyscale (each pixel is the byte itself)",
        ));
    }
    if !grey {
        warnings.push(format!(
            "{} is in colour; its red channel is used",
            path.display()
        ));
    }
    let channels = color.samples();
    let (buf, stride) = read_frame(&mut reader, &path)?;
    let mut out = Vec::with_capacity(want.0 * want.1);
    for row in buf.chunks(stride).take(want.1) {
        out.extend((0..want.0).map(|x| row[x * channels]));
    }
    Ok(out)
}

/// Reads the ground texture (PNG, or BMP/TGA/JPEG through `image`) into RGBA8, converting row by
/// row into one buffer.
pub(super) fn read_texture(file: LayerFile, want: (usize, usize)) -> Result<Vec<u8>, FormatError> {
    let is_png = file
        .path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let why = "512 texels per map unit: 8 per heightmap square";
    if !is_png {
        return read_other_texture(file, want, why);
    }
    let file = match read_our_strips(file, want)? {
        Ok(rgba) => return Ok(rgba),
        Err(file) => file,
    };
    let (mut reader, path) = open_png_sized(file, false, want, why)?;
    let (color, _) = reader.output_color_type();
    let channels = color.samples();
    let mut rgba = vec![0u8; want.0 * want.1 * 4];
    let mut y = 0;
    while let Some(row) = reader.next_row().map_err(|e| png_error(&path, e))? {
        let src = row.data();
        let dst = &mut rgba[y * want.0 * 4..(y + 1) * want.0 * 4];
        match channels {
            4 => dst.copy_from_slice(&src[..want.0 * 4]),
            3 => {
                for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(3)) {
                    d[..3].copy_from_slice(s);
                    d[3] = 255;
                }
            }
            2 => {
                for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(2)) {
                    d.copy_from_slice(&[s[0], s[0], s[0], s[1]]);
                }
            }
            _ => {
                for (d, &s) in dst.chunks_exact_mut(4).zip(src) {
                    d.copy_from_slice(&[s, s, s, 255]);
                }
            }
        }
        y += 1;
        if y == want.1 {
            break;
        }
    }
    if y != want.1 {
        return Err(png_error(&path, "fewer rows than the header says"));
    }
    Ok(rgba)
}

/// A `texture.png` that Groundwork wrote (by strips, `png_strips`), of `want` texels, read on
/// every core: `Ok(rgba)`, or `Err(file)` (its bytes, from the start) for the general
/// decoder when it is another PNG, or any check fails. The file is read whole only when its
/// header names `want` 8-bit RGB texels and it is no bigger than those texels stored raw.
fn read_our_strips(
    mut file: LayerFile,
    want: (usize, usize),
) -> Result<Result<Vec<u8>, LayerFile>, FormatError> {
    use std::io::{Read, SeekFrom};
    let path = file.path.clone();
    let mut head = [0u8; 33];
    let head_read = file.reader.read_exact(&mut head).is_ok();
    file.reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| FormatError::io(&path, e))?;
    let dims = |at: usize| u32::from_be_bytes(head[at..at + 4].try_into().expect("4 bytes"));
    let raw_bytes = (want.0 as u64 * 3 + 1) * want.1 as u64;
    if !head_read
        || &head[12..16] != b"IHDR"
        || (dims(16) as usize, dims(20) as usize) != want
        || head[24..26] != [8, 2]
        || file.len > raw_bytes + raw_bytes / 64 + (1 << 20)
    {
        return Ok(Err(file));
    }
    let mut bytes = Vec::with_capacity(file.len as usize);
    file.reader
        .read_to_end(&mut bytes)
        .map_err(|e| FormatError::io(&path, e))?;
    if let Some(rgba) = super::png_strips::read_png_rgb_strips(&bytes, want) {
        return Ok(Ok(rgba));
    }
    let len = bytes.len() as u64;
    Ok(Err(LayerFile {
        reader: Box::new(std::io::Cursor::new(bytes)),
        len,
        path,
    }))
}

/// An uncompressed 24- or 32-bit BMP (what image tools and Spring's `mapcompile` use for big
/// textures) read row by row straight into RGBA; `None` for any other kind, which the general
/// decoder then reads.
fn read_plain_bmp(
    file: &mut LayerFile,
    want: (usize, usize),
    why: &str,
) -> Result<Option<Vec<u8>>, FormatError> {
    use std::io::{Read, SeekFrom};
    let path = file.path.as_path();
    let f = &mut file.reader;
    let mut head = [0u8; 54];
    if f.read_exact(&mut head).is_err() || &head[..2] != b"BM" {
        f.seek(SeekFrom::Start(0))
            .map_err(|e| FormatError::io(path, e))?;
        return Ok(None);
    }
    let what = path.display().to_string();
    let mut r = ByteReader::at(&head, 10, &what, "BMP header")?;
    let (offset, dib) = (r.u32("pixel offset")? as u64, r.u32("DIB header size")?);
    let (width, height) = (r.i32("width")?, r.i32("height")?);
    r.skip(2, "planes")?;
    let bpp = r.u16("bits per pixel")?;
    let compression = r.u32("compression")?;
    // BI_RGB only (BI_BITFIELDS masks may reorder channels: leave those to the general decoder)
    if dib < 40 || compression != 0 || !(bpp == 24 || bpp == 32) || width <= 0 || height == 0 {
        f.seek(SeekFrom::Start(0))
            .map_err(|e| FormatError::io(path, e))?;
        return Ok(None);
    }
    let (w, h) = (width as usize, height.unsigned_abs() as usize);
    if (w, h) != want {
        return Err(wrong_size(path, (w, h), want, why));
    }
    let bytes_pp = bpp as usize / 8;
    let stride = (w * bytes_pp).div_ceil(4) * 4;
    let file_len = file.len;
    if offset + (stride * h) as u64 > file_len {
        return Err(FormatError::invalid(
            path.display().to_string(),
            "truncated: the BMP's pixels end early",
        ));
    }
    f.seek(SeekFrom::Start(offset))
        .map_err(|e| FormatError::io(path, e))?;
    let mut rgba = vec![0u8; w * h * 4];
    // bands of rows: read one, then spread its pixels out on all cores
    const BAND_ROWS: usize = 64;
    let mut band = vec![0u8; stride * BAND_ROWS.min(h)];
    let mut first = 0;
    while first < h {
        let rows = BAND_ROWS.min(h - first);
        let src = &mut band[..stride * rows];
        f.read_exact(src).map_err(|e| FormatError::io(path, e))?;
        let src = &*src;
        let convert = |(dst, src): (&mut [u8], &[u8])| match bytes_pp {
            3 => bgr_to_rgba::<3>(dst, src),
            _ => bgr_to_rgba::<4>(dst, src),
        };
        // rows are stored bottom-up unless the height is negative
        if height > 0 {
            let dst = &mut rgba[(h - first - rows) * w * 4..(h - first) * w * 4];
            dst.par_chunks_mut(w * 4)
                .rev()
                .zip(src.par_chunks(stride))
                .for_each(convert);
        } else {
            let dst = &mut rgba[first * w * 4..(first + rows) * w * 4];
            dst.par_chunks_mut(w * 4)
                .zip(src.par_chunks(stride))
                .for_each(convert);
        }
        first += rows;
    }
    Ok(Some(rgba))
}

/// One row of BGR(A) pixels, `N` bytes each, as opaque RGBA.
fn bgr_to_rgba<const N: usize>(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(N)) {
        d.copy_from_slice(&[s[2], s[1], s[0], 255]);
    }
}

/// BMP, TGA or JPEG: decoded once into the RGBA buffer itself (RGB is decoded into its front and
/// spread out from the back), so the texture is never held twice.
fn read_other_texture(
    mut file: LayerFile,
    want: (usize, usize),
    why: &str,
) -> Result<Vec<u8>, FormatError> {
    use image::ImageDecoder;
    if let Some(rgba) = read_plain_bmp(&mut file, want, why)? {
        return Ok(rgba);
    }
    let path = file.path.as_path();
    let bad =
        |e: image::ImageError| FormatError::invalid(path.display().to_string(), e.to_string());
    // TGA has no signature: the name says what it is unless the bytes say otherwise
    let mut reader = image::ImageReader::new(file.reader);
    if let Ok(format) = image::ImageFormat::from_path(path) {
        reader.set_format(format);
    }
    let decoder = reader
        .with_guessed_format()
        .map_err(|e| FormatError::io(path, e))?
        .into_decoder()
        .map_err(bad)?;
    let (w, h) = decoder.dimensions();
    if (w as usize, h as usize) != want {
        return Err(wrong_size(path, (w as usize, h as usize), want, why));
    }
    let texels = want.0 * want.1;
    match decoder.color_type() {
        image::ColorType::Rgba8 => {
            let mut rgba = vec![0u8; texels * 4];
            decoder.read_image(&mut rgba).map_err(bad)?;
            Ok(rgba)
        }
        image::ColorType::Rgb8 => {
            let mut rgba = vec![0u8; texels * 4];
            decoder.read_image(&mut rgba[..texels * 3]).map_err(bad)?;
            // spread RGB to RGBA in place, last texel first so nothing is overwritten unread
            for i in (0..texels).rev() {
                let (r, g, b) = (rgba[i * 3], rgba[i * 3 + 1], rgba[i * 3 + 2]);
                rgba[i * 4..i * 4 + 4].copy_from_slice(&[r, g, b, 255]);
            }
            Ok(rgba)
        }
        _ => Ok(image::DynamicImage::from_decoder(decoder)
            .map_err(bad)?
            .into_rgba8()
            .into_raw()),
    }
}

fn write_png(
    path: &Path,
    w: usize,
    h: usize,
    color: png::ColorType,
    depth: png::BitDepth,
    data: &[u8],
) -> Result<(), FormatError> {
    let tmp = path.with_extension("png.partial");
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let mut enc = png::Encoder::new(BufWriter::new(file), w as u32, h as u32);
        enc.set_color(color);
        enc.set_depth(depth);
        enc.set_compression(png::Compression::Fast);
        let mut writer = enc.write_header().map_err(std::io::Error::other)?;
        writer
            .write_image_data(data)
            .map_err(std::io::Error::other)?;
        writer.finish().map_err(std::io::Error::other)?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FormatError::io(path, e)
    })
}

pub fn write_height_words(
    path: &Path,
    w: usize,
    h: usize,
    words: &[u16],
) -> Result<(), FormatError> {
    let be: Vec<u8> = words.iter().flat_map(|v| v.to_be_bytes()).collect();
    write_png(
        path,
        w,
        h,
        png::ColorType::Grayscale,
        png::BitDepth::Sixteen,
        &be,
    )
}

pub fn write_byte_layer(path: &Path, w: usize, h: usize, bytes: &[u8]) -> Result<(), FormatError> {
    write_png(
        path,
        w,
        h,
        png::ColorType::Grayscale,
        png::BitDepth::Eight,
        bytes,
    )
}

/// Writes RGB (the engine ignores alpha), converting in strips to keep memory low.
pub fn write_rgb(path: &Path, w: usize, h: usize, rgba: &[u8]) -> Result<(), FormatError> {
    let tmp = path.with_extension("png.partial");
    let result = (|| {
        let mut file = BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        super::png_strips::write_png_rgb(&mut file, w, h, &|y, row: &mut [u8]| {
            for (d, s) in row
                .chunks_exact_mut(3)
                .zip(rgba[y * w * 4..(y + 1) * w * 4].chunks_exact(4))
            {
                d.copy_from_slice(&s[..3]);
            }
        })?;
        std::io::Write::flush(&mut file)?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FormatError::io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_texture_we_wrote_is_read_by_strips_and_another_png_by_the_png_crate() {
        let dir = tempfile::tempdir().unwrap();
        let (w, h) = (96, 70);
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| [(i % 251) as u8, (i * 7 % 256) as u8, (i / w * 3) as u8, 255])
            .collect();
        let ours = dir.path().join("texture.png");
        write_rgb(&ours, w, h, &rgba).unwrap();
        let by_strips = read_our_strips(LayerFile::open(&ours).unwrap(), (w, h)).unwrap();
        assert!(
            by_strips.ok() == Some(rgba.clone()),
            "our file is read by strips"
        );
        // the png crate's own file goes to the general decoder, which reads the same texels
        let theirs = dir.path().join("theirs.png");
        image::RgbaImage::from_raw(w as u32, h as u32, rgba.clone())
            .unwrap()
            .save(&theirs)
            .unwrap();
        assert!(
            read_our_strips(LayerFile::open(&theirs).unwrap(), (w, h))
                .unwrap()
                .is_err()
        );
        for path in [&ours, &theirs] {
            let read = read_texture(LayerFile::open(path).unwrap(), (w, h)).unwrap();
            assert!(read == rgba, "{}", path.display());
        }
    }

    #[test]
    fn a_colour_metal_map_we_wrote_by_strips_is_read_by_its_red_channel() {
        // only the texture takes the strips path: a byte layer is one byte a texel
        let dir = tempfile::tempdir().unwrap();
        let (w, h) = (40, 36);
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| [(i % 200) as u8, 7, 9, 255])
            .collect();
        let path = dir.path().join("metal.png");
        write_rgb(&path, w, h, &rgba).unwrap();
        let mut warnings = Vec::new();
        let read = read_byte_layer(
            LayerFile::open(&path).unwrap(),
            (w, h),
            "test",
            true,
            &mut warnings,
        )
        .unwrap();
        let red: Vec<u8> = rgba.chunks_exact(4).map(|p| p[0]).collect();
        assert!(read == red, "{} bytes read", read.len());
    }
}

//! A large `.sd7` entry as LZMA2 in independent parts: each part (a block of the `.smt`, or
//! at most [`PART_MAX_BYTES`] of any other entry) is packed on its own into LZMA2 chunks whose
//! first resets the dictionary, the coder state and the properties. Parts are then packed on
//! every core at once, kept in the compile cache by their bytes, and joined by plain
//! concatenation (and one end marker) into the entry's stream, as 7-Zip's multithreaded LZMA2
//! joins its blocks. The stream goes into the archive as a 7z block of one LZMA2 coder.
//!
//! Every part starts at a multiple of 8 bytes into its entry (the `.smt` header is 32 bytes,
//! a tile 680, a part at most 2 MiB), so the position contexts (`lp`, `pb` up to 3 bits) read
//! the same whether a decoder counts them from the entry's start or from the last reset.

use std::io::Write;

use super::lzma_literals::{self, LiteralEncoder};
use super::{SD7_LEVEL, Sd7Method, sd7_method};

/// The most bytes of one part: what every large entry is cut into, at the least.
pub const PART_MAX_BYTES: usize = 2 << 20;
/// The most unpacked bytes of one LZMA2 chunk (its size has 21 bits).
const CHUNK_UNPACKED_MAX: usize = 1 << 21;
/// The most packed bytes of one LZMA chunk, and the most bytes of an uncompressed one.
const CHUNK_PACKED_MAX: usize = 1 << 16;
/// The dictionary the coder declares: no match reaches past the start of its part, so a
/// dictionary the size of the largest part always suffices, whatever the part's settings.
const DECLARED_DICT_BYTES: u32 = PART_MAX_BYTES as u32;

/// LZMA2 chunk control bytes (`xz`'s file format, "LZMA2 chunks").
const STORED_RESET_DICT: u8 = 0x01;
const STORED: u8 = 0x02;
const LZMA: u8 = 0x80;
const LZMA_RESET_STATE: u8 = 0xA0;
const LZMA_NEW_PROPS: u8 = 0xC0;
const LZMA_RESET_DICT: u8 = 0xE0;

/// The part `data` as LZMA2 chunks (its first resets everything; no end marker), packed as
/// the sampler picks ([`sd7_method`]): the same bytes always give the same chunks.
pub fn pack_part(data: &[u8]) -> Vec<u8> {
    match sd7_method(data) {
        Sd7Method::Literals => literal_chunks(data),
        Sd7Method::Lzma2((dict_bytes, nice_len)) => match_chunks(data, dict_bytes, nice_len),
    }
}

/// `data` as LZMA2 chunks of literals only ([`lzma_literals`]), each cut where its packed
/// bytes would pass the chunk limit; a run that does not shrink is stored as it is.
fn literal_chunks(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() - data.len() / 8 + 64);
    if data.len() <= 64 {
        stored_chunks(&mut out, data, true);
        return out;
    }
    let mut coder = LiteralEncoder::default();
    let (mut first, mut need_props, mut need_state_reset) = (true, true, false);
    let mut at = 0;
    while at < data.len() {
        let take = (data.len() - at).min(CHUNK_UNPACKED_MAX);
        let (n, packed) = coder.code_run(&data[at..at + take], CHUNK_PACKED_MAX);
        if packed.len() < n {
            let control = if first {
                LZMA_RESET_DICT
            } else if need_props {
                LZMA_NEW_PROPS
            } else if need_state_reset {
                LZMA_RESET_STATE
            } else {
                LZMA
            };
            let (u, p) = (n - 1, packed.len() - 1);
            out.push(control | (u >> 16) as u8);
            out.extend_from_slice(&(u as u16).to_be_bytes());
            out.extend_from_slice(&(p as u16).to_be_bytes());
            if control >= LZMA_NEW_PROPS {
                out.push(lzma_literals::PROPS);
            }
            out.extend_from_slice(&packed);
            (need_props, need_state_reset) = (false, false);
        } else {
            // stored; the probabilities learnt from these bytes go, as the decoder's never saw
            // them: the next LZMA chunk resets the state (after a stored dictionary reset the
            // decoder also wants the properties again)
            stored_chunks(&mut out, &data[at..at + n], first);
            coder.reset_state();
            need_props |= first;
            need_state_reset = true;
        }
        first = false;
        at += n;
    }
    out
}

/// `data` as LZMA2 chunks with matches, by lzma-rust2 at `SD7_LEVEL` with the dictionary and
/// nice length given, its end marker taken off.
fn match_chunks(data: &[u8], dict_bytes: u32, nice_len: u32) -> Vec<u8> {
    if data.len() <= 64 {
        let mut out = Vec::new();
        stored_chunks(&mut out, data, true);
        return out;
    }
    let mut options = lzma_rust2::Lzma2Options::with_preset(SD7_LEVEL);
    options.lzma_options.dict_size = dict_bytes;
    options.lzma_options.nice_len = nice_len;
    let mut w = lzma_rust2::Lzma2Writer::new(Vec::with_capacity(data.len() / 2), options);
    // writing into memory cannot fail
    let mut out = w
        .write_all(data)
        .and_then(|()| w.finish())
        .unwrap_or_default();
    if out.last() == Some(&0) {
        out.pop();
    }
    if chunks_unpacked_len(&out) != Some(data.len() as u64) {
        // never seen; stored is always right
        out.clear();
        stored_chunks(&mut out, data, true);
    }
    out
}

/// Appends `data` as uncompressed chunks, the first resetting the dictionary when `reset`.
fn stored_chunks(out: &mut Vec<u8>, data: &[u8], mut reset: bool) {
    for piece in data.chunks(CHUNK_PACKED_MAX) {
        out.push(if reset { STORED_RESET_DICT } else { STORED });
        out.extend_from_slice(&((piece.len() - 1) as u16).to_be_bytes());
        out.extend_from_slice(piece);
        reset = false;
    }
}

/// How many bytes the chunks of one part unpack to, when they are whole and well formed: the
/// first resets the dictionary, an LZMA chunk comes after properties, nothing is cut and no end
/// marker is inside. `None` otherwise (a kept part that fails this is packed again).
pub fn chunks_unpacked_len(chunks: &[u8]) -> Option<u64> {
    let be16 = |at: usize| -> Option<usize> {
        Some(u16::from_be_bytes(chunks.get(at..at + 2)?.try_into().ok()?) as usize + 1)
    };
    let (mut at, mut total, mut need_props) = (0usize, 0u64, true);
    while at < chunks.len() {
        let control = chunks[at];
        if at == 0 && control != STORED_RESET_DICT && control < LZMA_RESET_DICT {
            return None;
        }
        match control {
            STORED_RESET_DICT | STORED => {
                need_props |= control == STORED_RESET_DICT;
                let n = be16(at + 1)?;
                at += 3 + n;
                total += n as u64;
            }
            LZMA..=0xFF => {
                if control >= LZMA_NEW_PROPS {
                    need_props = false;
                } else if need_props {
                    return None;
                }
                let unpacked = (((control & 0x1F) as usize) << 16) + be16(at + 1)?;
                let packed = be16(at + 3)?;
                at += 5 + usize::from(control >= LZMA_NEW_PROPS) + packed;
                total += unpacked as u64;
            }
            _ => return None,
        }
    }
    (at == chunks.len() && total > 0).then_some(total)
}

/// The LZMA2 coder's property byte for a dictionary of at least `bytes`.
fn dict_prop(bytes: u32) -> u8 {
    (0..40u8)
        .find(|&p| (2u64 | u64::from(p & 1)) << (p / 2 + 11) >= u64::from(bytes))
        .unwrap_or(40)
}

/// Appends a 7z NUMBER: the count of leading one bits in the first byte is the count of
/// bytes that follow (little-endian), and the first byte's other bits are the top bits.
fn put_number(out: &mut Vec<u8>, v: u64) {
    for extra in 0..8u32 {
        if v < 1u64 << (7 * (extra + 1)) {
            let first = !(0xFFu8 >> extra) | (v >> (8 * extra)) as u8;
            out.push(first);
            out.extend_from_slice(&v.to_le_bytes()[..extra as usize]);
            return;
        }
    }
    out.push(0xFF);
    out.extend_from_slice(&v.to_le_bytes());
}

/// A 7z archive of one entry `name` whose bytes (`unpacked_len` of them, CRC `crc`) are the
/// packed `parts` (each from [`pack_part`]) one after another, as `7zFormat.txt` lays it out:
/// the signature header, the LZMA2 stream (the parts and an end marker), then the header (one
/// pack stream, one folder of one LZMA2 coder, the entry's CRC, its name).
pub fn one_entry_7z(name: &str, parts: &[&[u8]], unpacked_len: u64, crc: u32) -> Vec<u8> {
    const K_END: u8 = 0x00;
    let packed_len = parts.iter().map(|p| p.len() as u64).sum::<u64>() + 1;
    let mut h = vec![0x01, 0x04]; // Header, MainStreamsInfo
    h.push(0x06); // PackInfo: at 0, one stream of its size
    put_number(&mut h, 0);
    put_number(&mut h, 1);
    h.push(0x09);
    put_number(&mut h, packed_len);
    h.push(K_END);
    h.extend_from_slice(&[0x07, 0x0B]); // UnPackInfo, Folder
    put_number(&mut h, 1); // one folder
    h.push(0); // not external
    put_number(&mut h, 1); // of one coder: a simple one with properties, id 21 (LZMA2)
    h.extend_from_slice(&[0x21, 0x21]);
    put_number(&mut h, 1);
    h.push(dict_prop(DECLARED_DICT_BYTES));
    h.push(0x0C); // CodersUnPackSize
    put_number(&mut h, unpacked_len);
    h.push(K_END);
    h.extend_from_slice(&[0x08, 0x0A, 0x01]); // SubStreamsInfo: one stream, its CRC defined
    h.extend_from_slice(&crc.to_le_bytes());
    h.push(K_END);
    h.push(K_END); // end of MainStreamsInfo
    h.push(0x05); // FilesInfo: one file, its name
    put_number(&mut h, 1);
    let name_utf16: Vec<u8> = name
        .encode_utf16()
        .chain([0])
        .flat_map(u16::to_le_bytes)
        .collect();
    h.push(0x11);
    put_number(&mut h, name_utf16.len() as u64 + 1);
    h.push(0); // not external
    h.extend_from_slice(&name_utf16);
    h.push(K_END); // end of FilesInfo
    h.push(K_END); // end of Header

    let mut start = Vec::with_capacity(20);
    start.extend_from_slice(&packed_len.to_le_bytes()); // header offset
    start.extend_from_slice(&(h.len() as u64).to_le_bytes());
    start.extend_from_slice(&crc32fast::hash(&h).to_le_bytes());
    let mut out = Vec::with_capacity(32 + packed_len as usize + h.len());
    out.extend_from_slice(&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4]);
    out.extend_from_slice(&crc32fast::hash(&start).to_le_bytes());
    out.extend_from_slice(&start);
    for p in parts {
        out.extend_from_slice(p);
    }
    out.push(0x00); // LZMA2's end marker
    out.extend_from_slice(&h);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Reads back the one entry of a 7z through sevenz-rust2.
    fn unpack(archive: &[u8]) -> (String, Vec<u8>) {
        let mut r =
            sevenz_rust2::ArchiveReader::new(Cursor::new(archive), sevenz_rust2::Password::empty())
                .unwrap();
        let mut got = None;
        r.for_each_entries(|entry, reader| {
            let mut data = Vec::new();
            reader.read_to_end(&mut data)?;
            got = Some((entry.name().to_string(), data));
            Ok(true)
        })
        .unwrap();
        got.unwrap()
    }

    /// Bytes from a small deterministic generator (xorshift64).
    fn noise(len_bytes: usize) -> Vec<u8> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..len_bytes)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    fn entry(parts: &[Vec<u8>]) -> (Vec<u8>, Vec<u8>) {
        let data = parts.concat();
        let packed: Vec<Vec<u8>> = parts.iter().map(|p| pack_part(p)).collect();
        for (p, c) in parts.iter().zip(&packed) {
            assert_eq!(chunks_unpacked_len(c), Some(p.len() as u64));
        }
        let refs: Vec<&[u8]> = packed.iter().map(|p| p.as_slice()).collect();
        let archive = one_entry_7z("maps/m.smt", &refs, data.len() as u64, {
            crc32fast::hash(&data)
        });
        (data, archive)
    }

    #[test]
    fn parts_of_every_kind_join_into_one_stream_that_decodes_to_their_bytes() {
        let ramp: Vec<u8> = (0..3u32 << 20).map(|i| (i / 4096) as u8).collect();
        let noisy = super::super::tests::noisy_ground_bc1(2048, true);
        let cases: Vec<Vec<Vec<u8>>> = vec![
            vec![vec![7u8; 32]],
            vec![noise(7 * 8)],
            // a header, noisy tiles (literals, several chunks), a ramp (matches), noise
            // that does not shrink (stored), repeats (matches reaching back)
            vec![
                vec![1u8; 32],
                noisy[..1 << 20].to_vec(),
                ramp[..2 << 20].to_vec(),
                noise(300_000),
                vec![0xFF; 100_000],
                noisy[1 << 20..].to_vec(),
            ],
        ];
        for parts in cases {
            let (data, archive) = entry(&parts);
            let (name, back) = unpack(&archive);
            assert_eq!(name, "maps/m.smt");
            assert!(back == data, "{} bytes did not survive", data.len());
        }
    }

    #[test]
    fn noise_is_stored_and_noisy_tiles_shrink() {
        let n = noise(200_000);
        let c = literal_chunks(&n);
        assert_eq!(c[0], STORED_RESET_DICT);
        assert!(c.len() < n.len() + n.len() / 1000 + 16);
        let tiles = super::super::tests::noisy_ground_bc1(1024, true);
        let c = literal_chunks(&tiles);
        assert_eq!(c[0] & 0xE0, LZMA_RESET_DICT);
        // cut into chunks, they pack within 1% of one unbroken run, and smaller than raw
        let run = lzma_literals::encode(&tiles).len();
        assert!(c.len() < run + run / 100, "{} against {run}", c.len());
        assert!(
            c.len() < tiles.len() * 9 / 10,
            "{} of {}",
            c.len(),
            tiles.len()
        );
        assert_eq!(chunks_unpacked_len(&c), Some(tiles.len() as u64));
    }

    #[test]
    fn a_damaged_part_is_refused_by_its_check() {
        let tiles = super::super::tests::noisy_ground_bc1(256, true);
        let c = pack_part(&tiles);
        assert_eq!(chunks_unpacked_len(&c), Some(tiles.len() as u64));
        assert_eq!(chunks_unpacked_len(&c[..c.len() - 1]), None, "cut");
        assert_eq!(chunks_unpacked_len(&c[1..]), None, "no reset first");
        assert_eq!(chunks_unpacked_len(&[]), None, "empty");
        let mut ended = c.clone();
        ended.push(0);
        assert_eq!(chunks_unpacked_len(&ended), None, "an end marker inside");
        // an LZMA chunk with no properties before it
        assert_eq!(
            chunks_unpacked_len(&[0x01, 0, 0, 9, 0x80, 0, 0, 0, 0, 0]),
            None
        );
    }

    #[test]
    fn the_dictionary_property_covers_the_size_asked() {
        assert_eq!(dict_prop(4096), 0);
        assert_eq!(dict_prop(1 << 20), 16);
        assert_eq!(dict_prop(2 << 20), 18);
        assert_eq!(dict_prop((2 << 20) + 1), 19);
        assert_eq!(dict_prop(3 << 20), 19);
        assert_eq!(dict_prop(u32::MAX), 40);
    }

    #[test]
    fn numbers_use_the_7z_variable_length_form() {
        let enc = |v| {
            let mut out = Vec::new();
            put_number(&mut out, v);
            out
        };
        assert_eq!(enc(0x7F), [0x7F]);
        assert_eq!(enc(0x80), [0x80, 0x80]);
        assert_eq!(enc(0x3FFF), [0xBF, 0xFF]);
        assert_eq!(enc(0x4000), [0xC0, 0x00, 0x40]);
        assert_eq!(
            enc(u64::MAX),
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        );
    }
}

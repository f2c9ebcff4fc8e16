//! Bounds-checked little-endian reading of a byte slice: every read names what it wanted, so a
//! truncated or lying file gives an error that says which field and which offset.

use super::FormatError;

/// A cursor over bytes that never reads past the end.
pub struct ByteReader<'a, 'w> {
    bytes: &'a [u8],
    pos: usize,
    /// The file or format, for error messages.
    what: &'w str,
}

impl<'a, 'w> ByteReader<'a, 'w> {
    pub fn new(bytes: &'a [u8], what: &'w str) -> ByteReader<'a, 'w> {
        ByteReader {
            bytes,
            pos: 0,
            what,
        }
    }

    /// A reader positioned at `offset`; an error when `offset` is past the end.
    pub fn at(
        bytes: &'a [u8],
        offset: usize,
        what: &'w str,
        field: &str,
    ) -> Result<Self, FormatError> {
        if offset > bytes.len() {
            return Err(FormatError::invalid(
                what,
                format!(
                    "{field} offset {offset} is past the end of the file ({} bytes)",
                    bytes.len()
                ),
            ));
        }
        Ok(ByteReader {
            bytes,
            pos: offset,
            what,
        })
    }

    pub fn pos(&self) -> usize {
        self.pos
    }
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// The next `len` bytes.
    pub fn take(&mut self, len: usize, field: &str) -> Result<&'a [u8], FormatError> {
        if len > self.remaining() {
            return Err(FormatError::invalid(
                self.what,
                format!(
                    "truncated: {field} needs {len} bytes at offset {}, but the file ends at {}",
                    self.pos,
                    self.bytes.len()
                ),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + len];
        self.pos += len;
        Ok(s)
    }

    pub fn u8(&mut self, field: &str) -> Result<u8, FormatError> {
        Ok(self.take(1, field)?[0])
    }
    pub fn u16(&mut self, field: &str) -> Result<u16, FormatError> {
        let b = self.take(2, field)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub fn i32(&mut self, field: &str) -> Result<i32, FormatError> {
        let b = self.take(4, field)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u32(&mut self, field: &str) -> Result<u32, FormatError> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u64(&mut self, field: &str) -> Result<u64, FormatError> {
        let b = self.take(8, field)?;
        Ok(u64::from_le_bytes([
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
        ]))
    }
    pub fn f32(&mut self, field: &str) -> Result<f32, FormatError> {
        Ok(f32::from_bits(self.u32(field)?))
    }

    /// Steps over `len` bytes the reader has no use for.
    pub fn skip(&mut self, len: usize, field: &str) -> Result<(), FormatError> {
        self.take(len, field).map(|_| ())
    }

    /// A NUL-terminated string (the NUL is consumed, not returned), at most `max_len` bytes.
    pub fn c_string(&mut self, max_len: usize, field: &str) -> Result<String, FormatError> {
        let rest = &self.bytes[self.pos..];
        let limit = rest.len().min(max_len + 1);
        match rest[..limit].iter().position(|&b| b == 0) {
            Some(n) => {
                let s = String::from_utf8_lossy(&rest[..n]).into_owned();
                self.pos += n + 1;
                Ok(s)
            }
            None if rest.len() <= max_len => Err(FormatError::invalid(
                self.what,
                format!(
                    "truncated: {field} at offset {} has no terminating NUL before the end of the file",
                    self.pos
                ),
            )),
            None => Err(FormatError::invalid(
                self.what,
                format!(
                    "{field} at offset {} is longer than {max_len} bytes",
                    self.pos
                ),
            )),
        }
    }

    /// A count read from the file, checked to be non-negative and to fit `bytes_each` bytes per
    /// item in what is left of the file, so it can never drive a huge allocation.
    pub fn count(&mut self, bytes_each: usize, field: &str) -> Result<usize, FormatError> {
        let at = self.pos;
        let n = self.i32(field)?;
        if n < 0 {
            return Err(FormatError::invalid(
                self.what,
                format!("{field} at offset {at} is negative ({n})"),
            ));
        }
        let n = n as usize;
        if n.saturating_mul(bytes_each.max(1)) > self.remaining() {
            return Err(FormatError::invalid(
                self.what,
                format!(
                    "{field} at offset {at} claims {n} entries, more than the {} bytes left can hold",
                    self.remaining()
                ),
            ));
        }
        Ok(n)
    }
}

/// Every whole little-endian `u32` of `bytes` (a trailing partial word is left out): the form
/// MPQ's encrypted tables are decrypted in.
pub fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// Appends little-endian values to a byte vector.
pub trait PutLe {
    fn put_i32(&mut self, v: i32);
    fn put_u32(&mut self, v: u32);
    fn put_f32(&mut self, v: f32);
    fn put_u16(&mut self, v: u16);
}

impl PutLe for Vec<u8> {
    fn put_i32(&mut self, v: i32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_end_with_a_message() {
        let mut r = ByteReader::new(&[1, 0, 0, 0, 7], "x.bin");
        assert_eq!(r.i32("a").unwrap(), 1);
        let e = r.i32("b").unwrap_err().to_string();
        assert!(e.contains("truncated: b needs 4 bytes at offset 4"), "{e}");
    }

    #[test]
    fn wide_reads_skips_and_words() {
        let mut bytes = vec![];
        bytes.put_u32(7);
        bytes.put_u32(1);
        bytes.put_u16(9);
        bytes.push(0xff);
        let mut r = ByteReader::new(&bytes, "x");
        assert_eq!(r.u64("a").unwrap(), (1 << 32) | 7);
        r.skip(2, "b").unwrap();
        assert!(r.skip(2, "c").is_err());
        assert_eq!(le_words(&bytes), vec![7, 1]);
    }

    #[test]
    fn counts_are_checked_against_the_bytes_left() {
        let mut bytes = vec![];
        bytes.put_i32(1_000_000_000);
        bytes.extend_from_slice(&[0; 16]);
        let e = ByteReader::new(&bytes, "x")
            .count(24, "features")
            .unwrap_err();
        assert!(e.to_string().contains("claims 1000000000"), "{e}");
        let mut neg = vec![];
        neg.put_i32(-5);
        assert!(ByteReader::new(&neg, "x").count(1, "n").is_err());
    }

    #[test]
    fn c_strings_need_a_nul_and_a_sane_length() {
        let mut r = ByteReader::new(b"abc\0def", "x");
        assert_eq!(r.c_string(31, "name").unwrap(), "abc");
        assert!(r.c_string(31, "name").is_err());
        assert!(
            ByteReader::new(&[b'a'; 100], "x")
                .c_string(31, "n")
                .is_err()
        );
    }
}

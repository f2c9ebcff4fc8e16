//! What the compile cache keys and keeps that the stages make: the keys (a tile's source
//! texels hashed with the encoder's tag) and a block of the `.smt`'s tiles. Below both the
//! cache and the stages, so neither reaches the other through them.

use std::sync::Arc;

/// A tile's key: its source texels hashed (xxh3-128) with the encoder tag as the seed.
pub type TileKey = [u8; KEY_BYTES];
pub const KEY_BYTES: usize = 16;

/// The zero key: no tile (xxh3-128 of real texels is never all zero but by a 2^-128 chance).
pub(crate) const NO_TILE: TileKey = [0; KEY_BYTES];

/// One block of the `.smt` made: its distinct tiles, and each of its cells' tile number
/// within it.
pub(crate) struct TileBlock {
    pub(crate) tiles: Arc<Vec<u8>>,
    pub(crate) local: Vec<u32>,
}

/// Lower-case hex of a key.
pub(crate) fn hex(key: &[u8]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

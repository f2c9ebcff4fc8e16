//! StarCraft II's map files, read: the MPQ archive (guarded: [`mpq`], with `mpq_tables`
//! checking the tables' contents), [`map_info`], [`heights`] (terrain layers in SC2 units),
//! [`objects`] and [`texture`] (masks and palette). The conversion to a Groundwork map is
//! `import::sc2`'s.

pub mod heights;
pub mod map_info;
pub mod mpq;
mod mpq_tables;
pub mod objects;
pub mod texture;

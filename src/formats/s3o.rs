//! S3O, the engine's model format for units and features (`rts/Rendering/Models/s3o.h`):
//! a header, a tree of pieces each holding its vertices and an index list of triangles,
//! triangle strips or quads, and each piece's offset from its parent (no rotation). Read into
//! [`S3oModel`] with every offset, count and float checked, and flattened into one triangle
//! list in model space ([`ModelMesh`]) for drawing.
//!
//! Little-endian, absolute offsets from the start of the file. Header, 52 bytes: magic
//! `"Spring unit\0"`, version, radius, height, mid x/y/z, root piece offset, collision data,
//! texture 1 and texture 2 name offsets. Piece, 52 bytes: name offset, child count, children
//! offset (an array of piece offsets), vertex count, vertices offset, vertex type, primitive
//! type, index count, indices offset, collision data, offset from the parent (3 x f32).
//! Vertex, 32 bytes: position, normal, u, v.

use super::FormatError;
use super::bytes::ByteReader;

/// The first 12 bytes of every S3O.
pub const S3O_MAGIC: &[u8; 12] = b"Spring unit\0";
/// Bytes in the header.
pub const S3O_HEADER_BYTES: usize = 52;
/// Bytes in one piece record.
pub const S3O_PIECE_BYTES: usize = 52;
/// Bytes in one vertex.
pub const S3O_VERTEX_BYTES: usize = 32;
/// The index that ends a triangle strip and starts the next.
pub const S3O_STRIP_RESTART: u32 = u32::MAX;
/// The most pieces a model may have (BAR's biggest units have a few hundred).
pub const MAX_PIECES: usize = 4096;
/// The deepest a piece may sit below the root.
pub const MAX_PIECE_DEPTH: usize = 64;
/// The most vertices all pieces together may hold (pieces may share one array in the file, so
/// the file's size alone does not bound this).
pub const MAX_TOTAL_VERTICES: usize = 1 << 21;
/// The most indices all pieces together may hold.
pub const MAX_TOTAL_INDICES: usize = 1 << 22;
/// The longest piece or texture name read.
const MAX_NAME_BYTES: usize = 1024;

/// How a piece's index list makes triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum S3oPrimitive {
    /// Every 3 indices a triangle.
    Triangles,
    /// A triangle strip; [`S3O_STRIP_RESTART`] ends one strip and starts the next.
    Strip,
    /// Every 4 indices a quad (two triangles).
    Quads,
}

/// One vertex as stored: in its piece's space, before the piece's offsets are added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct S3oVertex {
    pub position: [f32; 3],
    /// A zero vector where the file's normal is not finite (the engine does the same).
    pub normal: [f32; 3],
    /// Texture coordinates as stored (the engine passes them to its sampler unchanged).
    pub uv: [f32; 2],
}

/// One piece of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct S3oPiece {
    pub name: String,
    /// The index of the parent in [`S3oModel::pieces`]; `None` for the root.
    pub parent: Option<usize>,
    /// Its offset from its parent, in elmos.
    pub offset_from_parent: [f32; 3],
    /// Its offset from the model's origin: the offsets of it and every ancestor added.
    pub offset_in_model: [f32; 3],
    pub primitive: S3oPrimitive,
    pub vertices: Vec<S3oVertex>,
    /// Indices into `vertices`, each checked to be in range (strip restarts aside).
    pub indices: Vec<u32>,
}

impl S3oPiece {
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }
    pub fn index_count(&self) -> usize {
        self.indices.len()
    }
}

/// A whole model.
#[derive(Clone, Debug, PartialEq)]
pub struct S3oModel {
    pub version: i32,
    /// The header's radius in elmos (the engine computes its own when this is under 0.01).
    pub radius_elmos: f32,
    /// The header's height in elmos (likewise).
    pub height_elmos: f32,
    /// The model's middle, relative to its origin, in elmos.
    pub mid: [f32; 3],
    /// The diffuse texture's name under `unittextures/` (RGB colour, A team colour mask);
    /// empty when the file names none.
    pub texture1: String,
    /// The other texture's name (R self-illumination, G specular, A transparency).
    pub texture2: String,
    /// Every piece, root first, each parent before its children.
    pub pieces: Vec<S3oPiece>,
}

/// One triangle list in model space: every piece moved by its offset in the model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelMesh {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    /// Three per triangle, indexing the arrays above.
    pub indices: Vec<u32>,
}

impl ModelMesh {
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// The smallest and largest corner of the box around every position; `None` when empty.
    pub fn bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        let first = *self.positions.first()?;
        Some(self.positions.iter().fold((first, first), |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1]), lo[2].min(p[2])],
                [hi[0].max(p[0]), hi[1].max(p[1]), hi[2].max(p[2])],
            )
        }))
    }
}

/// Reads an S3O (`what` names it in errors).
pub fn read_s3o(bytes: &[u8], what: &str) -> Result<S3oModel, FormatError> {
    let mut r = ByteReader::new(bytes, what);
    if r.take(12, "magic")? != S3O_MAGIC {
        return Err(FormatError::invalid(
            what,
            "not an S3O model (no \"Spring unit\" magic)",
        ));
    }
    let version = r.i32("version")?;
    let radius_elmos = finite(what, "radius", r.f32("radius")?)?;
    let height_elmos = finite(what, "height", r.f32("height")?)?;
    let mut mid = [0.0; 3];
    for (m, field) in mid.iter_mut().zip(["mid x", "mid y", "mid z"]) {
        *m = finite(what, field, r.f32(field)?)?;
    }
    let root = r.i32("root piece offset")?;
    r.skip(4, "collision data")?;
    let texture1_at = r.i32("texture 1 name offset")?;
    let texture2_at = r.i32("texture 2 name offset")?;
    let texture1 = name_at(bytes, texture1_at, what, "texture 1 name")?;
    let texture2 = name_at(bytes, texture2_at, what, "texture 2 name")?;
    let pieces = read_pieces(bytes, root, what)?;
    Ok(S3oModel {
        version,
        radius_elmos,
        height_elmos,
        mid,
        texture1,
        texture2,
        pieces,
    })
}

fn finite(what: &str, field: &str, v: f32) -> Result<f32, FormatError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(FormatError::invalid(what, format!("{field} is {v}")))
    }
}

/// An offset read from the file as a position in it; negative ones are errors.
fn offset(what: &str, field: &str, at: i32) -> Result<usize, FormatError> {
    usize::try_from(at)
        .map_err(|_| FormatError::invalid(what, format!("{field} offset is negative ({at})")))
}

/// A NUL-terminated name at `at`, at most [`MAX_NAME_BYTES`]; offset 0 means none, as the
/// engine reads it. Bytes that are not UTF-8 become `?`, one byte each, so the name written
/// back is no longer than it was.
fn name_at(bytes: &[u8], at: i32, what: &str, field: &str) -> Result<String, FormatError> {
    if at == 0 {
        return Ok(String::new());
    }
    let start = offset(what, field, at)?;
    let rest = bytes.get(start..).ok_or_else(|| {
        FormatError::invalid(
            what,
            format!(
                "{field} offset {start} is past the end of the file ({} bytes)",
                bytes.len()
            ),
        )
    })?;
    let end = rest
        .iter()
        .take(MAX_NAME_BYTES + 1)
        .position(|&b| b == 0)
        .ok_or_else(|| {
            FormatError::invalid(
                what,
                format!(
                    "{field} at offset {start} has no NUL within {MAX_NAME_BYTES} bytes or before the end of the file"
                ),
            )
        })?;
    let raw = &rest[..end];
    Ok(match std::str::from_utf8(raw) {
        Ok(s) => s.to_string(),
        Err(_) => raw
            .iter()
            .map(|&b| if b.is_ascii() { b as char } else { '?' })
            .collect(),
    })
}

/// A reader over the `count` records of `bytes_each` bytes at `at`, checked to lie in the file.
fn table<'a, 'w>(
    bytes: &'a [u8],
    at: i32,
    count: i32,
    bytes_each: usize,
    what: &'w str,
    field: &str,
) -> Result<(ByteReader<'a, 'w>, usize), FormatError> {
    let count = usize::try_from(count)
        .map_err(|_| FormatError::invalid(what, format!("{field} count is negative ({count})")))?;
    if count == 0 {
        // the engine never looks at an empty table's offset, and some exporters leave it wild
        return Ok((ByteReader::new(&[], what), 0));
    }
    let start = offset(what, field, at)?;
    let end = count
        .checked_mul(bytes_each)
        .and_then(|n| n.checked_add(start));
    if end.is_none_or(|end| end > bytes.len()) {
        return Err(FormatError::invalid(
            what,
            format!(
                "{field}: {count} entries at offset {start} run past the end of the file ({} bytes)",
                bytes.len()
            ),
        ));
    }
    Ok((ByteReader::at(bytes, start, what, field)?, count))
}

/// Walks the piece tree from `root` without recursion, each parent before its children.
fn read_pieces(bytes: &[u8], root: i32, what: &str) -> Result<Vec<S3oPiece>, FormatError> {
    let mut pieces: Vec<S3oPiece> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let (mut total_vertices, mut total_indices) = (0usize, 0usize);
    // (piece offset, parent index, depth); children pushed in reverse keep the file's order
    let mut stack = vec![(root, None::<usize>, 0usize)];
    while let Some((at, parent, depth)) = stack.pop() {
        let at = offset(what, "piece", at)?;
        if !seen.insert(at) {
            return Err(FormatError::invalid(
                what,
                format!("the piece at offset {at} is reached twice (a loop in the piece tree)"),
            ));
        }
        if pieces.len() >= MAX_PIECES {
            return Err(FormatError::invalid(
                what,
                format!("more than {MAX_PIECES} pieces"),
            ));
        }
        if depth > MAX_PIECE_DEPTH {
            return Err(FormatError::invalid(
                what,
                format!("pieces nested deeper than {MAX_PIECE_DEPTH}"),
            ));
        }
        let mut r = ByteReader::at(bytes, at, what, "piece")?;
        let name_offset = r.i32("piece name offset")?;
        let child_count = r.i32("child count")?;
        let children_at = r.i32("children offset")?;
        let vertex_count = r.i32("vertex count")?;
        let vertices_at = r.i32("vertices offset")?;
        r.skip(4, "vertex type")?;
        let primitive = match r.i32("primitive type")? {
            0 => S3oPrimitive::Triangles,
            1 => S3oPrimitive::Strip,
            2 => S3oPrimitive::Quads,
            p => {
                return Err(FormatError::invalid(
                    what,
                    format!("the piece at offset {at} has primitive type {p} (0, 1 or 2 expected)"),
                ));
            }
        };
        let index_count = r.i32("index count")?;
        let indices_at = r.i32("indices offset")?;
        r.skip(4, "piece collision data")?;
        let mut offset_from_parent = [0.0; 3];
        for (o, field) in offset_from_parent.iter_mut().zip([
            "piece x offset",
            "piece y offset",
            "piece z offset",
        ]) {
            *o = finite(what, field, r.f32(field)?)?;
        }
        let name = name_at(bytes, name_offset, what, "piece name")?;
        let base = parent.map_or([0.0; 3], |p| pieces[p].offset_in_model);
        let offset_in_model = [
            base[0] + offset_from_parent[0],
            base[1] + offset_from_parent[1],
            base[2] + offset_from_parent[2],
        ];
        if offset_in_model.iter().any(|v| !v.is_finite()) {
            return Err(FormatError::invalid(
                what,
                format!("piece {name:?}'s offsets add up past the range of a float"),
            ));
        }

        let (mut vr, vertex_count) = table(
            bytes,
            vertices_at,
            vertex_count,
            S3O_VERTEX_BYTES,
            what,
            "vertices",
        )?;
        let (mut ir, index_count) = table(bytes, indices_at, index_count, 4, what, "indices")?;
        let (mut cr, child_count) = table(bytes, children_at, child_count, 4, what, "children")?;
        total_vertices += vertex_count;
        total_indices += index_count;
        if total_vertices > MAX_TOTAL_VERTICES || total_indices > MAX_TOTAL_INDICES {
            return Err(FormatError::invalid(
                what,
                format!(
                    "more than {MAX_TOTAL_VERTICES} vertices or {MAX_TOTAL_INDICES} indices in all"
                ),
            ));
        }
        if pieces.len() + stack.len() + child_count > MAX_PIECES {
            return Err(FormatError::invalid(
                what,
                format!("more than {MAX_PIECES} pieces"),
            ));
        }

        let mut vertices = Vec::with_capacity(vertex_count);
        for _ in 0..vertex_count {
            let mut f = [0f32; 8];
            for v in f.iter_mut() {
                *v = vr.f32("vertex")?;
            }
            let position = [f[0], f[1], f[2]];
            let moved = [
                position[0] + offset_in_model[0],
                position[1] + offset_in_model[1],
                position[2] + offset_in_model[2],
            ];
            if moved.iter().chain(&f[6..8]).any(|v| !v.is_finite()) {
                return Err(FormatError::invalid(
                    what,
                    format!(
                        "piece {name:?} vertex {} has a position or texture coordinate that is not a finite number",
                        vertices.len()
                    ),
                ));
            }
            let normal = [f[3], f[4], f[5]];
            let normal = if normal.iter().all(|v| v.is_finite()) {
                normal
            } else {
                [0.0; 3]
            };
            vertices.push(S3oVertex {
                position,
                normal,
                uv: [f[6], f[7]],
            });
        }
        let mut indices = Vec::with_capacity(index_count);
        for n in 0..index_count {
            let i = ir.u32("index")?;
            let restart = primitive == S3oPrimitive::Strip && i == S3O_STRIP_RESTART;
            if !restart && i as usize >= vertex_count {
                return Err(FormatError::invalid(
                    what,
                    format!(
                        "piece {name:?} index {n} is {i}, but the piece has {vertex_count} vertices"
                    ),
                ));
            }
            indices.push(i);
        }
        let mut children = Vec::with_capacity(child_count);
        for _ in 0..child_count {
            children.push(cr.i32("child piece offset")?);
        }

        let me = pieces.len();
        pieces.push(S3oPiece {
            name,
            parent,
            offset_from_parent,
            offset_in_model,
            primitive,
            vertices,
            indices,
        });
        for &c in children.iter().rev() {
            stack.push((c, Some(me), depth + 1));
        }
    }
    Ok(pieces)
}

impl S3oModel {
    /// Every piece as triangles in model space, one list. Strips become their triangles with
    /// the winding alternated so all face one way (the engine keeps each triple in file order,
    /// which draws the same triangles), degenerate ones dropped; quads become two triangles
    /// each; a quad list whose length is not a multiple of 4 draws nothing (as in the engine),
    /// a triangle list's leftover indices are dropped. Indices out of range (only possible in a
    /// model built by hand) drop their triangle.
    pub fn mesh(&self) -> ModelMesh {
        let mut mesh = ModelMesh::default();
        for piece in &self.pieces {
            let base = mesh.positions.len() as u32;
            let [ox, oy, oz] = piece.offset_in_model;
            for v in &piece.vertices {
                let p = v.position;
                mesh.positions.push([p[0] + ox, p[1] + oy, p[2] + oz]);
                mesh.normals.push(v.normal);
                mesh.uvs.push(v.uv);
            }
            let count = piece.vertices.len() as u32;
            let mut push = |a: u32, b: u32, c: u32| {
                if a < count && b < count && c < count {
                    mesh.indices.extend([base + a, base + b, base + c]);
                }
            };
            let ix = &piece.indices;
            match piece.primitive {
                S3oPrimitive::Triangles => {
                    for t in ix.chunks_exact(3) {
                        push(t[0], t[1], t[2]);
                    }
                }
                S3oPrimitive::Quads => {
                    if ix.len() % 4 == 0 {
                        for q in ix.chunks_exact(4) {
                            push(q[0], q[1], q[2]);
                            push(q[0], q[2], q[3]);
                        }
                    }
                }
                S3oPrimitive::Strip => {
                    for strip in ix.split(|&i| i == S3O_STRIP_RESTART) {
                        for (k, t) in strip.windows(3).enumerate() {
                            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                                continue;
                            }
                            if k % 2 == 0 {
                                push(t[0], t[1], t[2]);
                            } else {
                                push(t[1], t[0], t[2]);
                            }
                        }
                    }
                }
            }
        }
        mesh
    }

    /// The radius the engine gives the model: the header's when over 0.01, else half the
    /// diagonal of the box around `mesh`.
    pub fn effective_radius_elmos(&self, mesh: &ModelMesh) -> f32 {
        if self.radius_elmos > 0.01 {
            return self.radius_elmos;
        }
        mesh.bounds().map_or(0.0, |(lo, hi)| {
            let d = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
            0.5 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
        })
    }

    /// The height the engine gives the model: the header's when over 0.01, else the box's
    /// height around `mesh`.
    pub fn effective_height_elmos(&self, mesh: &ModelMesh) -> f32 {
        if self.height_elmos > 0.01 {
            return self.height_elmos;
        }
        mesh.bounds().map_or(0.0, |(lo, hi)| hi[1] - lo[1])
    }
}

/// Writes `model` as an S3O: the header, every piece record, then each piece's name, children,
/// vertices and indices, then the texture names. `pieces[0]` is the root; every other piece
/// hangs under its `parent` (one without is left out). `offset_in_model` is not written; the
/// reader adds it up again.
pub fn write_s3o(model: &S3oModel) -> Vec<u8> {
    use super::bytes::PutLe as _;
    let n = model.pieces.len();
    let children: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&c| c != i && model.pieces[c].parent == Some(i))
                .collect()
        })
        .collect();
    let piece_at = |i: usize| (S3O_HEADER_BYTES + i * S3O_PIECE_BYTES) as i32;
    let mut data = Vec::new();
    let data_at = S3O_HEADER_BYTES + n * S3O_PIECE_BYTES;
    let mut records = Vec::with_capacity(n * S3O_PIECE_BYTES);
    for (i, piece) in model.pieces.iter().enumerate() {
        let name_at = (data_at + data.len()) as i32;
        data.extend_from_slice(piece.name.as_bytes());
        data.push(0);
        let children_at = (data_at + data.len()) as i32;
        for &c in &children[i] {
            data.put_i32(piece_at(c));
        }
        let vertices_at = (data_at + data.len()) as i32;
        for v in &piece.vertices {
            for f in v.position.iter().chain(&v.normal).chain(&v.uv) {
                data.put_f32(*f);
            }
        }
        let indices_at = (data_at + data.len()) as i32;
        for &ix in &piece.indices {
            data.put_u32(ix);
        }
        records.put_i32(name_at);
        records.put_i32(children[i].len() as i32);
        records.put_i32(children_at);
        records.put_i32(piece.vertices.len() as i32);
        records.put_i32(vertices_at);
        records.put_i32(0);
        records.put_i32(match piece.primitive {
            S3oPrimitive::Triangles => 0,
            S3oPrimitive::Strip => 1,
            S3oPrimitive::Quads => 2,
        });
        records.put_i32(piece.indices.len() as i32);
        records.put_i32(indices_at);
        records.put_i32(0);
        for f in piece.offset_from_parent {
            records.put_f32(f);
        }
    }
    let mut texture_at = [0i32; 2];
    for (at, name) in texture_at
        .iter_mut()
        .zip([&model.texture1, &model.texture2])
    {
        if !name.is_empty() {
            *at = (data_at + data.len()) as i32;
            data.extend_from_slice(name.as_bytes());
            data.push(0);
        }
    }
    let mut out = Vec::with_capacity(data_at + data.len());
    out.extend_from_slice(S3O_MAGIC);
    out.put_i32(model.version);
    out.put_f32(model.radius_elmos);
    out.put_f32(model.height_elmos);
    for f in model.mid {
        out.put_f32(f);
    }
    out.put_i32(if n == 0 { 0 } else { piece_at(0) });
    out.put_i32(0);
    out.put_i32(texture_at[0]);
    out.put_i32(texture_at[1]);
    out.extend_from_slice(&records);
    out.extend_from_slice(&data);
    out
}

/// A small model with every primitive type: a quad root, a strip with a restart under it, a
/// triangle under that, each piece offset from its parent. Seeds for the fuzzer and tests.
pub fn example_model() -> S3oModel {
    let v = |x: f32, y: f32, z: f32| S3oVertex {
        position: [x, y, z],
        normal: [0.0, 1.0, 0.0],
        uv: [x / 8.0, z / 8.0],
    };
    let piece = |name: &str, parent, primitive, vertices: Vec<S3oVertex>, indices| S3oPiece {
        name: name.into(),
        parent,
        offset_from_parent: [2.0, 3.0, 4.0],
        offset_in_model: [0.0; 3],
        primitive,
        vertices,
        indices,
    };
    S3oModel {
        version: 0,
        radius_elmos: 10.0,
        height_elmos: 8.0,
        mid: [0.0, 4.0, 0.0],
        texture1: "example_1.dds".into(),
        texture2: "example_2.dds".into(),
        pieces: vec![
            piece(
                "base",
                None,
                S3oPrimitive::Quads,
                vec![
                    v(0.0, 0.0, 0.0),
                    v(8.0, 0.0, 0.0),
                    v(8.0, 0.0, 8.0),
                    v(0.0, 0.0, 8.0),
                ],
                vec![0, 1, 2, 3],
            ),
            piece(
                "top",
                Some(0),
                S3oPrimitive::Strip,
                (0..5).map(|i| v(i as f32, 4.0, 1.0)).collect(),
                vec![0, 1, 2, 3, S3O_STRIP_RESTART, 2, 3, 4],
            ),
            piece(
                "tip",
                Some(1),
                S3oPrimitive::Triangles,
                vec![v(0.0, 0.0, 0.0), v(1.0, 1.0, 0.0), v(0.0, 1.0, 1.0)],
                vec![0, 1, 2],
            ),
        ],
    }
}

#[cfg(test)]
mod tests;

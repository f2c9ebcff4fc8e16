//! The renderer and the GPU brush kernels. Knows wgpu, the document and the tools (it runs
//! their kernels), not egui: the window and `groundwork render` both draw through it.
//!
//! - [`bake`]: the export bake of the texture layers on the GPU (CPU twin: `ground_bake::bake`).
//! - [`context`]: the device (the adapter's real limits, only the features we use).
//! - [`camera`]: orbit / top-down camera, presets, frustum.
//! - [`features`]: map features drawn as their models, instanced, standing on the live ground.
//! - [`terrain`]: chunks, levels of detail, culling.
//! - [`ground`]: the ground texture in mipmapped tiles.
//! - [`grass`]: grass blades as BAR's grass widget grows them.
//! - [`ground_layers`]: the texture layers' weights (evaluated live), materials and look.
//! - [`ground_rules`]: the texture layers' rules on the GPU (packing, inputs, masks, shore).
//! - [`pathing`]: one move class's pathing overlay, live over a stroke (CPU twin:
//!   `analyze::passability::codes_rect`), and a start's flooded region.
//! - [`shared`]: what every pass shares (formats, the frame uniform, the bind group layouts,
//!   texture helpers), below the passes: they depend on it, never on the renderer.
//! - [`scene`]: one map on the GPU.
//! - [`renderer`]: the pipelines (`shaders/terrain.wgsl`, `water.wgsl`, `markers.wgsl`,
//!   `features.wgsl`).
//! - [`kernels`]: the tools' compute kernels (`shaders/brush_*.wgsl`) and the session's view
//!   of a map's layers on the GPU ([`kernels::SceneLayers`]).
//! - [`probe`]: the depth under the cursor, read back without waiting.
//! - [`snapshot`]: one picture of a map with no window.
//! - [`target`]: offscreen pictures and reading them back.
//! - [`view`]: overlays and their colours.
//! - [`water`]: BumpWater's terms, their CPU twin, the normal texture and the coast field.

pub mod bake;
pub mod camera;
pub mod context;
pub mod features;
pub mod grass;
pub mod ground;
pub mod ground_layers;
pub mod ground_rules;
pub mod kernels;
pub mod pathing;
pub mod probe;
pub mod renderer;
pub mod scene;
pub mod shared;
pub mod snapshot;
pub mod target;
pub mod terrain;
pub mod view;
pub mod water;

pub use camera::{Camera, CameraPreset};
pub use context::{GpuContext, GpuError};
pub use features::{FeatureInstance, FeatureModelData};
pub use kernels::{BrushKernels, SceneLayers};
pub use renderer::{FrameStats, Renderer};
pub use scene::MapScene;
pub use target::RenderTarget;
pub use view::{Overlay, ViewOptions};

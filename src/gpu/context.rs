//! The device the renderer and the kernels run on: how to ask for it (the adapter's real
//! limits, only the features we use), headless or handed over by the window, and what it can do.

use std::sync::Arc;

/// Why no GPU device could be had.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    #[error("no GPU adapter found (install a Vulkan driver, e.g. mesa-vulkan-drivers): {0}")]
    NoAdapter(String),
    #[error("the GPU refused the device: {0}")]
    Device(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("reading back from the GPU failed: {0}")]
    Readback(String),
}

/// The optional features the renderer uses when the adapter has them.
fn wanted_features(adapter: &wgpu::Adapter) -> wgpu::Features {
    adapter.features() & wgpu::Features::TIMESTAMP_QUERY
}

/// The device the editor needs: the adapter's own limits (eframe's default asks for WebGL-level
/// limits, too small for a 4097 x 4097 heightmap and with no compute on GL) and only the
/// features we use, masked by what the adapter has.
pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
    wgpu::DeviceDescriptor {
        label: Some("groundwork device"),
        required_features: wanted_features(adapter),
        required_limits: adapter.limits(),
        experimental_features: wgpu::ExperimentalFeatures::disabled(),
        memory_hints: wgpu::MemoryHints::Performance,
        trace: wgpu::Trace::Off,
    }
}

/// A device and queue, and what they can do.
#[derive(Clone)]
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    pub limits: wgpu::Limits,
    /// Compute kernels can edit the heights in place (read-write R32Float storage textures).
    pub compute: bool,
    /// Shared so that clones (handed to worker threads) count as one device.
    _marker: Arc<()>,
}

impl std::fmt::Debug for GpuContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GpuContext({} on {:?}, compute: {})",
            self.info.name, self.info.backend, self.compute
        )
    }
}

impl GpuContext {
    /// Wraps a device created from `adapter` with [`device_descriptor`].
    pub fn new(adapter: &wgpu::Adapter, device: wgpu::Device, queue: wgpu::Queue) -> GpuContext {
        let limits = device.limits();
        let rw = adapter
            .get_texture_format_features(wgpu::TextureFormat::R32Float)
            .flags
            .contains(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE);
        let compute = adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
            && limits.max_storage_textures_per_shader_stage >= 1
            && limits.max_compute_workgroup_size_x >= 8
            && limits.max_compute_workgroup_size_y >= 8
            && limits.max_compute_invocations_per_workgroup >= 64
            && rw
            && std::env::var_os("GROUNDWORK_NO_COMPUTE").is_none();
        GpuContext {
            device,
            queue,
            info: adapter.get_info(),
            limits,
            compute,
            _marker: Arc::new(()),
        }
    }

    /// A device with no window: for `groundwork render`, tests and benchmarks. Honours
    /// `WGPU_BACKEND` (vulkan, gl, ...) and `WGPU_ADAPTER_NAME`.
    pub fn headless() -> Result<GpuContext, GpuError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if wgpu::Backends::from_env().is_none() {
            desc.backends = wgpu::Backends::PRIMARY | wgpu::Backends::GL;
        }
        let instance = wgpu::Instance::new(desc);
        let adapter = pollster::block_on(async {
            match wgpu::util::initialize_adapter_from_env(&instance, None).await {
                Ok(a) => Ok(a),
                Err(_) => {
                    instance
                        .request_adapter(&wgpu::RequestAdapterOptions {
                            power_preference: wgpu::PowerPreference::from_env()
                                .unwrap_or(wgpu::PowerPreference::HighPerformance),
                            ..Default::default()
                        })
                        .await
                }
            }
        })
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let (device, queue) =
            pollster::block_on(adapter.request_device(&device_descriptor(&adapter)))
                .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(GpuContext::new(&adapter, device, queue))
    }

    /// Waits until the GPU has finished everything submitted so far.
    pub fn wait(&self) {
        let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
    }

    /// One line naming the adapter and backend, for logs and benchmark tables.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:?}, {:?}{})",
            self.info.name,
            self.info.backend,
            self.info.device_type,
            if self.compute {
                ", compute"
            } else {
                ", no compute"
            }
        )
    }
}

/// Whether an adapter (its name and type, as `wgpu::AdapterInfo` gives them) is a CPU
/// rendering for want of a GPU (lavapipe, llvmpipe, WARP,
/// SwiftShader): the driver says `Cpu`, or names itself so behind another type. On such an
/// adapter the compile's heavy kernels run faster as their CPU twins (a 6-layer 16x16 bake
/// takes 81 s on lavapipe and 14 s on the CPU twin, 2 cores).
pub fn is_cpu_adapter(name: &str, device_type: wgpu::DeviceType) -> bool {
    let name = name.to_ascii_lowercase();
    device_type == wgpu::DeviceType::Cpu
        || [
            "llvmpipe",
            "lavapipe",
            "softpipe",
            "swiftshader",
            "microsoft basic render",
        ]
        .iter()
        .any(|n| name.contains(n))
}

impl GpuContext {
    /// Whether this device is a CPU ([`is_cpu_adapter`]).
    pub fn is_cpu(&self) -> bool {
        is_cpu_adapter(&self.info.name, self.info.device_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_adapters_are_told_from_gpus() {
        use wgpu::DeviceType::*;
        assert!(is_cpu_adapter("llvmpipe (LLVM 15.0.6, 256 bits)", Cpu));
        assert!(is_cpu_adapter("llvmpipe (LLVM 15.0.6, 256 bits)", Other));
        assert!(is_cpu_adapter("Microsoft Basic Render Driver", Other));
        assert!(!is_cpu_adapter("NVIDIA H200", DiscreteGpu));
        assert!(!is_cpu_adapter("AMD Radeon Graphics (RADV)", IntegratedGpu));
        assert!(!is_cpu_adapter("Apple M2", Other));
    }
}

//! What a `Navmesh` holds: the opened model behind a lock, and what is derived from it (the
//! geometry, the navigator) built once, when first asked for, and dropped when the model
//! changes. Nothing here touches Python, so every call can run with the GIL released.

use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use nav_core::geometry::Geometry;
use nav_core::navigation::Navigator;
use navkit_lib::registry::Opened;

/// A model and its caches.
struct Inner {
    model: Box<dyn Opened>,
    /// The geometry ([`Opened::geometry`]), or why there is none.
    geometry: Option<Result<Arc<Geometry>, String>>,
    /// The navigator over [`Opened::navigation`], or why there is none.
    navigator: Option<Result<Arc<Navigator>, String>>,
}

/// An opened model shared between threads: reads in parallel, edits one at a time.
pub(crate) struct Shared {
    inner: RwLock<Inner>,
}

/// A lock that a panic poisoned.
pub(crate) struct Poisoned;

impl Shared {
    /// Holds `model`, with nothing derived yet.
    pub(crate) fn new(model: Box<dyn Opened>) -> Self {
        Shared {
            inner: RwLock::new(Inner {
                model,
                geometry: None,
                navigator: None,
            }),
        }
    }

    fn read(&self) -> Result<RwLockReadGuard<'_, Inner>, Poisoned> {
        self.inner.read().map_err(|_| Poisoned)
    }

    fn write(&self) -> Result<RwLockWriteGuard<'_, Inner>, Poisoned> {
        self.inner.write().map_err(|_| Poisoned)
    }

    /// Runs `f` on the model.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&dyn Opened) -> R) -> Result<R, Poisoned> {
        Ok(f(self.read()?.model.as_ref()))
    }

    /// Runs `f` on the model, which it may change: the geometry and navigator are built anew
    /// when next asked for.
    pub(crate) fn edit<R>(&self, f: impl FnOnce(&mut dyn Opened) -> R) -> Result<R, Poisoned> {
        let mut inner = self.write()?;
        inner.geometry = None;
        inner.navigator = None;
        Ok(f(inner.model.as_mut()))
    }

    /// The model's geometry, built on the first call.
    pub(crate) fn geometry(&self) -> Result<Result<Arc<Geometry>, String>, Poisoned> {
        if let Some(done) = &self.read()?.geometry {
            return Ok(done.clone());
        }
        let mut inner = self.write()?;
        if let Some(done) = &inner.geometry {
            return Ok(done.clone());
        }
        let built = inner
            .model
            .geometry()
            .map(Arc::new)
            .ok_or_else(|| format!("{} has no geometry mapping", inner.model.format().name()));
        inner.geometry = Some(built.clone());
        Ok(built)
    }

    /// The geometry's vertices: from the geometry when it is built, else from the model alone
    /// ([`Opened::vertices`], which builds no polygons).
    pub(crate) fn vertices(&self) -> Result<Result<Vec<[f32; 3]>, String>, Poisoned> {
        let inner = self.read()?;
        if let Some(done) = &inner.geometry {
            return Ok(done
                .as_ref()
                .map(|g| g.vertices.clone())
                .map_err(Clone::clone));
        }
        Ok(inner
            .model
            .vertices()
            .ok_or_else(|| format!("{} has no geometry mapping", inner.model.format().name())))
    }

    /// The navigator over the model's navigation graph, built on the first call.
    pub(crate) fn navigator(&self) -> Result<Result<Arc<Navigator>, String>, Poisoned> {
        if let Some(done) = &self.read()?.navigator {
            return Ok(done.clone());
        }
        let mut inner = self.write()?;
        if let Some(done) = &inner.navigator {
            return Ok(done.clone());
        }
        let name = inner.model.format().name();
        let built = match inner.model.navigation() {
            None => Err(format!("{name} has no navigation graph")),
            Some(graph) => Navigator::new(graph)
                .map(Arc::new)
                .map_err(|e| format!("{name}: {e}")),
        };
        inner.navigator = Some(built.clone());
        Ok(built)
    }
}

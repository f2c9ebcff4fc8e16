//! The export pipeline: document to archive, in stages, with progress and cancel.

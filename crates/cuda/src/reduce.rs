//! reduce (being written).

//! index (being written).

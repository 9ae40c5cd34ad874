//! mask (being written).

//! elementwise (being written).

//! matmul (being written).

//! sort (being written).

//! timer (being written).

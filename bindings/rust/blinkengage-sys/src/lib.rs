//! Raw declarations of libblinkengage's C API (`include/blinkengage.h`), for the safe `blinkengage` crate and
//! for anyone who wants the C API as it is. Ownership, threads and NULL are as the header documents them.
//!
//! `bindings.rs` is generated from the header with bindgen (`scripts/rust-bindings.sh`); the test
//! `tests/header.rs` regenerates it and fails when the header changed without it.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case, dead_code)]

include!("bindings.rs");

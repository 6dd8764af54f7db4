//! One module per page.
pub mod home;
pub mod subsampling;

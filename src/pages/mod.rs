//! One module per page.
pub mod home;
pub mod limits;
pub mod subsampling;

//! One module per page.
pub mod accuracy;
pub mod home;
pub mod iteration;
pub mod limits;
pub mod renyi;
pub mod shuffling;
pub mod subsampling;
pub mod training;

//! Pages. Every page is rendered from its declaration in `amp_site::pages` by [`declared`]; the
//! other modules hold page-specific widgets, which read the page's numbers from the context
//! [`declared`] provides ([`PageReadings`], [`Refined`]).

use amp_site::pages::Readings;
use leptos::prelude::*;

pub mod accuracy;
pub mod declared;
pub mod home;
pub mod training;

/// The numbers of the page on screen, for its widgets.
#[derive(Clone, Copy)]
pub struct PageReadings(pub Memo<Readings>);

/// Whether the numbers on screen are the refined ones (always, on a page that does not refine).
#[derive(Clone, Copy)]
pub struct Refined(pub Signal<bool>);

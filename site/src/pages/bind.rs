//! Bindings between parameters: the checks that involve more than one parameter
//! ([`amp_model::constraints`]), and which controls matter for the current view.

use super::View;
pub use amp_model::constraints::{check_together, Constraint, CONSTRAINTS};
use amp_model::params::{ParamSpec, ParamValues};

/// Whether a parameter's control matters for the current values in this view
/// ([`amp_model::constraints::relevant`] over the view's parameters).
pub fn is_relevant(view: View, values: &ParamValues, spec: &ParamSpec) -> bool {
    amp_model::constraints::relevant(view.params(), values, spec)
}

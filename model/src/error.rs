//! Why a figure or a reading has no value: not ready, not applicable (with the reason for the
//! reader), a formula's refusal, or the compute module's silence.

use amp_math::MathError;

/// Why a figure has no chart to draw, or a reading no value.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// Its inputs are not ready yet (the median simulation is still running).
    Pending,
    /// The figure does not apply at these parameters, and why, in one sentence for the reader.
    NotApplicable(String),
    /// A formula refused its inputs.
    Math(MathError),
    /// Computed by the compute module only (the site's `heavy` module), which did not answer.
    Elsewhere,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Pending => f.write_str("waiting for the simulation"),
            ModelError::NotApplicable(why) => f.write_str(why),
            ModelError::Math(e) => write!(f, "{e}"),
            ModelError::Elsewhere => f.write_str("computed in the background, which failed"),
        }
    }
}

impl std::error::Error for ModelError {}

impl From<MathError> for ModelError {
    fn from(e: MathError) -> Self {
        ModelError::Math(e)
    }
}

impl From<String> for ModelError {
    fn from(why: String) -> Self {
        ModelError::NotApplicable(why)
    }
}

impl From<&str> for ModelError {
    fn from(why: &str) -> Self {
        ModelError::NotApplicable(why.to_string())
    }
}

/// The reason in words, where an error ends as text (the CLI's one-line refusal, a cell of a
/// table).
impl From<ModelError> for String {
    fn from(e: ModelError) -> String {
        e.to_string()
    }
}

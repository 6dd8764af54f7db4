//! Why a figure or a reading has no value: not ready, not applicable (with the reason for the
//! reader), a formula's refusal, or the compute module's silence.

use amp_chart::Chart;
use amp_math::MathError;

/// Why a figure has no chart to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartError {
    /// Its inputs are not ready yet (the median simulation is still running).
    Pending,
    /// The figure does not apply at these parameters, and why, in one sentence for the reader.
    NotApplicable(String),
    /// A formula refused its inputs.
    Math(MathError),
    /// Computed by the compute module only ([`crate::heavy`]), which did not answer.
    Elsewhere,
}

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChartError::Pending => f.write_str("waiting for the simulation"),
            ChartError::NotApplicable(why) => f.write_str(why),
            ChartError::Math(e) => write!(f, "{e}"),
            ChartError::Elsewhere => f.write_str("computed in the background, which failed"),
        }
    }
}

impl std::error::Error for ChartError {}

impl From<MathError> for ChartError {
    fn from(e: MathError) -> Self {
        ChartError::Math(e)
    }
}

impl From<String> for ChartError {
    fn from(why: String) -> Self {
        ChartError::NotApplicable(why)
    }
}

impl From<&str> for ChartError {
    fn from(why: &str) -> Self {
        ChartError::NotApplicable(why.to_string())
    }
}

/// What computing a figure gives.
pub type ChartResult = Result<Chart, ChartError>;

//! The registry: every figure's id (its variant of FigureId and its URL id, in registry order) and
//! its FigureSpec (title, the parameters it reads, how it is computed), in the same order.

use super::*;

figure_ids! {
    HomeAmplification = "home-amplification";
    AmplificationVsRate = "amplification-vs-rate";
    AmplificationVsEpsilon = "amplification-vs-epsilon";
    SampleBudget = "sample-budget";
    NeighbourDensities = "neighbour-densities";
    KnownInclusion = "known-inclusion";
    NoiseRatioVsEpsilon = "noise-ratio-vs-epsilon";
    TaylorOrders = "taylor-orders";
    NoiseRatioFixedC = "noise-ratio-fixed-c";
    NoiseBoundVsC = "noise-bound-vs-c";
    MseComparison = "mse-comparison";
    RegimeMap = "regime-map";
    VarianceFractionQ = "variance-fraction-q";
    MeanVarianceVsRate = "mean-variance-vs-rate";
    MeanNoiseRatio = "mean-noise-ratio";
    PopulationDensity = "population-density";
    PrivateEstimates = "private-estimates";
    SensitivityRatio = "sensitivity-ratio";
    NoiseMagnitude = "noise-magnitude";
    SampleMedians = "sample-medians";
    MedianMseVsRate = "median-mse-vs-rate";
    RdpBase = "rdp-base";
    RdpSubsampled = "rdp-subsampled";
    RdpCdpLines = "rdp-cdp-lines";
    RdpComposition = "rdp-composition";
    RdpOptimalOrder = "rdp-optimal-order";
    EpsilonVsEpochs = "epsilon-vs-epochs";
    BatchingComparison = "batching-comparison";
    BatchingNoise = "batching-noise";
    CappedBatches = "capped-batches";
    BandedNoise = "banded-noise";
    TuningCost = "tuning-cost";
    PrivacyProfile = "privacy-profile";
    PrivacyLossDistribution = "privacy-loss-distribution";
    NoiseForTarget = "noise-for-target";
    GaussianNoiseRatio = "gaussian-noise-ratio";
    TradeoffCurve = "tradeoff-curve";
    TprVsSteps = "tpr-vs-steps";
    NoiseForRisk = "noise-for-risk";
    AuditCanaries = "audit-canaries";
    ShuffleEpsilonVsUsers = "shuffle-epsilon-vs-users";
    ShuffleEpsilonVsLocal = "shuffle-epsilon-vs-local";
    ShuffleEpsilonVsRounds = "shuffle-epsilon-vs-rounds";
    ShuffleTradeoff = "shuffle-tradeoff";
    ShuffleVsSubsample = "shuffle-vs-subsample";
    ErrorCentralLocalShuffle = "error-central-local-shuffle";
    SubsampledRr = "subsampled-rr";
    IterationPrivacyByPosition = "iteration-privacy-by-position";
    IterationNoiseSchedule = "iteration-noise-schedule";
    IterationManyPasses = "iteration-many-passes";
}
/// The training run's controls, read by the figures of the run itself (ε against its length, its
/// privacy profile and its privacy loss distribution).
static RUN_PARAMS: &[&ParamSpec] = params![
    &[p::DATASET.spec, p::BATCH.spec, p::ACCUMULATION.spec],
    p::group::NOISE.params,
    p::group::LENGTH.params,
    &[
        p::DELTA.spec,
        p::PHASES.spec,
        p::RECORDS.spec,
        p::MAX_BATCH.spec,
        p::BANDS.spec
    ],
    p::group::PHASE_2.params,
    p::group::PHASE_3.params,
    p::group::PHASE_4.params
];

/// One-pass noisy SGD's controls, read by both figures of the iteration page.
static ITERATION_PARAMS: &[&ParamSpec] = &[
    p::ITERATIONS.spec,
    p::STEP_BATCH.spec,
    p::SIGMA.spec,
    p::STEP_SIZE.spec,
    p::SMOOTHNESS.spec,
    p::DELTA.spec,
];

/// The many-pass run's controls (Brown, Theorem 3.1).
static MANY_PASS_PARAMS: &[&ParamSpec] = &[
    p::PASS_STEPS.spec,
    p::PASS_RECORDS.spec,
    p::PASS_BATCHES.spec,
    p::PASS_BATCH.spec,
    p::DIAMETER.spec,
    p::SIGMA.spec,
    p::STEP_SIZE.spec,
    p::SMOOTHNESS.spec,
    p::DELTA.spec,
];

/// The median simulation's controls, read by the accuracy page's population figures.
static SIM_PARAMS: &[&ParamSpec] = &[
    p::POPULATION.spec,
    p::POPULATION_SIZE.spec,
    p::RUNS.spec,
    p::SEED.spec,
];

/// The subsampled mechanism's controls with the reader's order, read by the Rényi page's
/// subsampled curve and its zCDP/tCDP lines.
static SUBSAMPLED_RDP_PARAMS: &[&ParamSpec] = params![
    p::group::MECHANISM.params,
    p::group::RDP_SAMPLING.params,
    &[p::ALPHA.spec]
];

/// Every figure of the app.
pub static FIGURES: &[FigureSpec] = &[
    FigureSpec {
        id: FigureId::HomeAmplification,
        title: "What sampling at rate p does to ε",
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(subsampling::vs_rate),
    },
    FigureSpec {
        id: FigureId::AmplificationVsRate,
        title: "Amplified ε′ against the sampling rate",
        params: params![&[p::EPS.spec], p::group::SUBSAMPLING.params],
        compute: Compute::Direct(subsampling::vs_rate),
    },
    FigureSpec {
        id: FigureId::AmplificationVsEpsilon,
        title: "Amplified ε′ against the base ε, with its bounds",
        params: params![&[p::EPS.spec], p::group::SUBSAMPLING.params],
        compute: Compute::Direct(subsampling::vs_epsilon),
    },
    FigureSpec {
        id: FigureId::SampleBudget,
        title: "The ε a sample may spend for a target ε′",
        params: params![&[p::EPS.spec], p::group::SUBSAMPLING.params],
        compute: Compute::Direct(subsampling::sample_budget),
    },
    FigureSpec {
        id: FigureId::NeighbourDensities,
        title: "Why sampling helps: the two neighbours' outputs and the privacy loss",
        params: &[p::NOISE.spec, p::EPS.spec, p::P.spec],
        compute: Compute::Direct(why::neighbour_densities),
    },
    FigureSpec {
        id: FigureId::KnownInclusion,
        title: "No gain when the sample is known: the privacy loss with inclusion disclosed",
        params: &[p::NOISE.spec, p::EPS.spec, p::P.spec],
        compute: Compute::Direct(why::known_inclusion),
    },
    FigureSpec {
        id: FigureId::NoiseRatioVsEpsilon,
        title: "Noise ratio against ε",
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(limits::ratio_vs_epsilon),
    },
    FigureSpec {
        id: FigureId::TaylorOrders,
        title: "ε_p and its Taylor approximations",
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(limits::taylor_orders),
    },
    FigureSpec {
        id: FigureId::NoiseRatioFixedC,
        title: "Noise ratio with ε = c·p, against p",
        params: &[p::C.spec, p::P.spec],
        compute: Compute::Direct(limits::ratio_fixed_c),
    },
    FigureSpec {
        id: FigureId::NoiseBoundVsC,
        title: "The noise bound c/log(1 + c)",
        params: &[p::C.spec],
        compute: Compute::Direct(limits::bound_vs_c),
    },
    FigureSpec {
        id: FigureId::MseComparison,
        title: "Mean squared error: standard against subsampled",
        params: &[p::EPS.spec, p::P.spec, p::N.spec],
        compute: Compute::Direct(limits::mse_comparison),
    },
    FigureSpec {
        id: FigureId::RegimeMap,
        title: "The machine-learning regime: noise factor over batch size and epochs",
        params: &[
            p::DATASET.spec,
            p::TOTAL_EPS.spec,
            p::BATCH.spec,
            p::EPOCHS.spec,
            p::C.spec,
        ],
        compute: Compute::Direct(limits::regime_map),
    },
    FigureSpec {
        id: FigureId::VarianceFractionQ,
        title: "How small the sampling variance must be: q against the rate",
        params: &[p::EPS.spec, p::RATE.spec, p::TARGET_Q.spec],
        compute: Compute::Direct(accuracy::variance_fraction_q),
    },
    FigureSpec {
        id: FigureId::MeanVarianceVsRate,
        title: "The private mean: sample variance relative to the population's",
        params: &[
            p::EPS.spec,
            p::RATE.spec,
            p::POPULATION_SIZE.spec,
            p::RANGE.spec,
            p::POP_VARIANCE.spec,
        ],
        compute: Compute::Direct(accuracy::mean_variance_vs_rate),
    },
    FigureSpec {
        id: FigureId::MeanNoiseRatio,
        title: "Noise ratio r(ε, n/N) of the mean, and the rounding artifact",
        params: &[p::EPS.spec, p::RATE.spec, p::NAIVE.spec],
        compute: Compute::Direct(accuracy::mean_noise_ratio_fig),
    },
    FigureSpec {
        id: FigureId::PopulationDensity,
        title: "The simulated population",
        params: &[p::POPULATION.spec, p::POPULATION_SIZE.spec, p::SEED.spec],
        compute: Compute::Direct(accuracy::population_density),
    },
    FigureSpec {
        id: FigureId::PrivateEstimates,
        title: "The whole population's mean and median, released many times",
        params: &[
            p::ESTIMATES_POPULATION.spec,
            p::POPULATION_SIZE.spec,
            p::RUNS.spec,
            p::SEED.spec,
        ],
        compute: Compute::Direct(accuracy::private_estimates),
    },
    FigureSpec {
        id: FigureId::SensitivityRatio,
        title: "Smooth sensitivity of the sample median over the population's",
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::sensitivity_ratio),
    },
    FigureSpec {
        id: FigureId::NoiseMagnitude,
        title: "How much noise is added",
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::noise_magnitude),
    },
    FigureSpec {
        id: FigureId::SampleMedians,
        title: "Where the sample medians fall",
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::sample_medians),
    },
    FigureSpec {
        id: FigureId::MedianMseVsRate,
        title: "Error of the private median against the sampling rate",
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::median_mse_vs_rate),
    },
    FigureSpec {
        id: FigureId::RdpBase,
        title: "Rényi DP curves of the base mechanisms",
        params: params![p::group::MECHANISM.params, &[p::ALPHA.spec]],
        compute: Compute::Direct(renyi::base),
    },
    FigureSpec {
        id: FigureId::RdpSubsampled,
        title: "Rényi DP of the subsampled mechanism: exact, upper and lower bounds",
        params: SUBSAMPLED_RDP_PARAMS,
        compute: Compute::Direct(renyi::subsampled_fig),
    },
    FigureSpec {
        id: FigureId::RdpCdpLines,
        title: "zCDP does not amplify, tCDP does: lines above the subsampled curve",
        params: SUBSAMPLED_RDP_PARAMS,
        compute: Compute::Direct(renyi::cdp_lines),
    },
    FigureSpec {
        id: FigureId::RdpComposition,
        title: "Overall (ε, δ) over k compositions: RDP against (ε, δ) composition",
        params: params![
            p::group::MECHANISM.params,
            p::group::RDP_SAMPLING.params,
            &[p::STEPS.spec, p::DELTA.spec]
        ],
        compute: Compute::Deferred(heavy::chart(renyi::composition_fig)),
    },
    FigureSpec {
        id: FigureId::RdpOptimalOrder,
        title: "The order that gives the best (ε, δ), against k",
        params: params![
            p::group::MECHANISM.params,
            p::group::RDP_SAMPLING.params,
            &[p::STEPS.spec, p::DELTA.spec]
        ],
        compute: Compute::Direct(renyi::optimal_order_fig),
    },
    FigureSpec {
        id: FigureId::EpsilonVsEpochs,
        title: "ε against the length of training: tight band and Rényi DP",
        params: RUN_PARAMS,
        compute: Compute::Deferred(heavy::chart(training::epsilon_vs_epochs)),
    },
    FigureSpec {
        id: FigureId::BatchingComparison,
        title: "ε against epochs for Poisson, shuffled and balls-in-bins batches",
        params: params![
            &[p::DATASET.spec, p::BATCH.spec, p::ACCUMULATION.spec],
            p::group::NOISE.params,
            p::group::LENGTH.params,
            &[
                p::BATCHING.spec,
                p::DELTA.spec,
                p::PHASES.spec,
                p::RECORDS.spec,
                p::MAX_BATCH.spec,
                p::BANDS.spec
            ]
        ],
        compute: Compute::Deferred(heavy::chart(batching::comparison)),
    },
    FigureSpec {
        id: FigureId::BatchingNoise,
        title: "The noise each way of forming batches needs for a target ε",
        params: params![
            &[p::DATASET.spec, p::BATCH.spec, p::ACCUMULATION.spec],
            p::group::NOISE.params,
            p::group::LENGTH.params,
            &[
                p::BATCHING.spec,
                p::DELTA.spec,
                p::TARGET_EPS.spec,
                p::PHASES.spec,
                p::RECORDS.spec,
                p::MAX_BATCH.spec,
                p::BANDS.spec
            ]
        ],
        compute: Compute::Deferred(heavy::chart(batching::noise)),
    },
    FigureSpec {
        id: FigureId::CappedBatches,
        title: "A cap on the batch size: ε against the cap",
        params: RUN_PARAMS,
        compute: Compute::Deferred(heavy::chart(training::capped_batches)),
    },
    FigureSpec {
        id: FigureId::BandedNoise,
        title: "Correlated noise: ε and the noise for a target against the number of bands",
        params: params![RUN_PARAMS, &[p::TARGET_EPS.spec]],
        compute: Compute::Deferred(heavy::chart(training::banded_noise)),
    },
    FigureSpec {
        id: FigureId::TuningCost,
        title: "What a hyperparameter search costs, against the expected number of runs",
        params: params![RUN_PARAMS, p::group::TUNING.params],
        compute: Compute::Deferred(heavy::chart(training::tuning_cost)),
    },
    FigureSpec {
        id: FigureId::PrivacyProfile,
        title: "The privacy profile δ(ε) of the run",
        params: RUN_PARAMS,
        compute: Compute::Deferred(heavy::chart(training::privacy_profile)),
    },
    FigureSpec {
        id: FigureId::PrivacyLossDistribution,
        title: "The privacy loss distribution of one step and of the run",
        params: RUN_PARAMS,
        compute: Compute::Deferred(heavy::chart(why::privacy_loss_distribution)),
    },
    FigureSpec {
        id: FigureId::NoiseForTarget,
        title: "Noise needed for a target ε, against the batch size",
        params: params![
            &[
                p::DATASET.spec,
                p::BATCH.spec,
                p::ACCUMULATION.spec,
                p::MECH.spec
            ],
            p::group::LENGTH.params,
            &[
                p::DELTA.spec,
                p::TARGET_EPS.spec,
                p::PHASES.spec,
                p::RECORDS.spec,
                p::MAX_BATCH.spec,
                p::BANDS.spec
            ]
        ],
        compute: Compute::Deferred(heavy::chart(training::noise_for_target)),
    },
    FigureSpec {
        id: FigureId::GaussianNoiseRatio,
        title: "The noise ratio for the Gaussian mechanism, against the rate",
        params: params![
            &[p::DATASET.spec, p::BATCH.spec, p::ACCUMULATION.spec],
            p::group::LENGTH.params,
            &[
                p::DELTA.spec,
                p::TARGET_EPS.spec,
                p::PHASES.spec,
                p::RECORDS.spec,
                p::MAX_BATCH.spec,
                p::BANDS.spec
            ]
        ],
        compute: Compute::Deferred(heavy::chart(training::gaussian_noise_ratio)),
    },
    FigureSpec {
        id: FigureId::TradeoffCurve,
        title: "What an attacker can do: the trade-off curve of the run",
        params: params![
            p::group::MECHANISM.params,
            &[
                p::Q.spec,
                p::STEPS.spec,
                p::DELTA.spec,
                p::FPR.spec,
                p::TRADEOFF_VIEW.spec,
                p::RECORDS.spec
            ]
        ],
        compute: Compute::Deferred(heavy::chart(risk::tradeoff_curve)),
    },
    FigureSpec {
        id: FigureId::TprVsSteps,
        title: "The attacker's TPR as training goes on: sampling against none",
        params: params![
            p::group::MECHANISM.params,
            &[p::Q.spec, p::STEPS.spec, p::FPR.spec, p::RECORDS.spec]
        ],
        compute: Compute::Deferred(heavy::chart(risk::tpr_vs_steps)),
    },
    FigureSpec {
        id: FigureId::NoiseForRisk,
        title: "Noise for a target attack risk against noise for a target ε",
        params: &[
            p::MECH.spec,
            p::Q.spec,
            p::STEPS.spec,
            p::DELTA.spec,
            p::FPR.spec,
            p::TARGET_TPR.spec,
            p::TARGET_EPS.spec,
            p::RECORDS.spec,
        ],
        compute: Compute::Deferred(heavy::chart(risk::noise_for_risk)),
    },
    FigureSpec {
        id: FigureId::AuditCanaries,
        title: "What a one-run audit can prove, against the number of canaries",
        params: params![
            p::group::MECHANISM.params,
            &[
                p::Q.spec,
                p::STEPS.spec,
                p::RECORDS.spec,
                p::DELTA.spec,
                p::AUDIT_CANARIES.spec,
                p::AUDIT_CONFIDENCE.spec
            ]
        ],
        compute: Compute::Deferred(heavy::chart(audit::canaries)),
    },
    FigureSpec {
        id: FigureId::ShuffleEpsilonVsUsers,
        title: "Central ε against the number of users, every shuffle bound",
        params: params![
            &[p::EPS0.spec, p::USERS.spec, p::DELTA.spec],
            p::group::RANDOMIZER.params
        ],
        compute: Compute::Deferred(heavy::chart(shuffle::epsilon_vs_users)),
    },
    FigureSpec {
        id: FigureId::ShuffleEpsilonVsLocal,
        title: "Central ε against the local ε₀, every shuffle bound",
        params: params![
            &[p::EPS0.spec, p::USERS.spec, p::DELTA.spec],
            p::group::RANDOMIZER.params
        ],
        compute: Compute::Deferred(heavy::chart(shuffle::epsilon_vs_local)),
    },
    FigureSpec {
        id: FigureId::ShuffleEpsilonVsRounds,
        title:
            "Central ε after R rounds: the loss distribution composed against composing guarantees",
        params: params![
            &[p::EPS0.spec, p::USERS.spec, p::DELTA.spec, p::ROUNDS.spec],
            p::group::RANDOMIZER.params
        ],
        compute: Compute::Deferred(heavy::chart(shuffle::epsilon_vs_rounds)),
    },
    FigureSpec {
        id: FigureId::ShuffleTradeoff,
        title: "What an attacker can do after R rounds of shuffling",
        params: params![
            &[
                p::EPS0.spec,
                p::USERS.spec,
                p::DELTA.spec,
                p::ROUNDS.spec,
                p::FPR.spec,
                p::TRADEOFF_VIEW.spec
            ],
            p::group::RANDOMIZER.params
        ],
        compute: Compute::Deferred(heavy::chart(shuffle::shuffle_tradeoff)),
    },
    FigureSpec {
        id: FigureId::ShuffleVsSubsample,
        title: "What a central target allows: shuffling against subsampling",
        params: params![
            &[p::USERS.spec, p::DELTA.spec],
            p::group::RANDOMIZER.params,
            &[p::TARGET_EPS.spec, p::P.spec]
        ],
        compute: Compute::Deferred(heavy::chart(shuffle::shuffle_vs_subsample)),
    },
    FigureSpec {
        id: FigureId::ErrorCentralLocalShuffle,
        title: "Error of a private mean: central, local and shuffled",
        params: &[p::USERS.spec, p::DELTA.spec, p::TARGET_EPS.spec],
        compute: Compute::Deferred(heavy::chart(shuffle::error_central_local_shuffle)),
    },
    FigureSpec {
        id: FigureId::SubsampledRr,
        title: "Randomized response on a subsample: exact ε, εp and the theorem",
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(shuffle::subsampled_rr_fig),
    },
    FigureSpec {
        id: FigureId::IterationPrivacyByPosition,
        title: "Privacy of the last iterate by the position of the record",
        params: ITERATION_PARAMS,
        compute: Compute::Direct(iteration::privacy_by_position),
    },
    FigureSpec {
        id: FigureId::IterationNoiseSchedule,
        title: "Where the noise goes: three schedules with the same total noise",
        params: ITERATION_PARAMS,
        compute: Compute::Direct(iteration::noise_schedule),
    },
    FigureSpec {
        id: FigureId::IterationManyPasses,
        title: "The last iterate over many passes: composition, then a plateau",
        params: MANY_PASS_PARAMS,
        compute: Compute::Deferred(heavy::chart(iteration::many_passes)),
    },
];

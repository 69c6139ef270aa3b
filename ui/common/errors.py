"""dp_core's and data's errors in the reader's language.

dp_core and data raise ``dp_core.errors.CodedError`` for the sentences a user meets most (the
argument checks of dp_core.validation and the checks of an own CSV file in data.own_csv and
data.registry): a code and its parameters, written here from the catalogue by code. Any other
error is shown as its English sentence. An engine's own text (``CodedError.detail``) is shown
folded below the sentence, as the engine wrote it.
"""

from __future__ import annotations

import streamlit as st

from dp_core.errors import CodedError
from ui.common.i18n import N_, _

MESSAGES = {  # CodedError code -> message id (the English catalogue holds dp_core's sentence)
    "number": N_("common.error.number"),
    "epsilon_finite": N_("common.error.epsilon_finite"),
    "epsilon_negative": N_("common.error.epsilon_negative"),
    "epsilon_positive": N_("common.error.epsilon_positive"),
    "delta_range": N_("common.error.delta_range"),
    "delta_positive": N_("common.error.delta_positive"),
    "positive": N_("common.error.positive"),
    "bounds_finite": N_("common.error.bounds_finite"),
    "bounds_order": N_("common.error.bounds_order"),
    "probability_open": N_("common.error.probability_open"),
    "probability_closed": N_("common.error.probability_closed"),
    "whole": N_("common.error.whole"),
    "minimum": N_("common.error.minimum"),
    "choice": N_("common.error.choice"),
    "csv_empty": N_("common.error.csv_empty"),
    "csv_size": N_("common.error.csv_size"),
    "csv_binary": N_("common.error.csv_binary"),
    "csv_fields": N_("common.error.csv_fields"),
    "csv_columns": N_("common.error.csv_columns"),
    "csv_unreadable": N_("common.error.csv_unreadable"),
    "csv_rows": N_("common.error.csv_rows"),
    "csv_no_rows": N_("common.error.csv_no_rows"),
    "table_empty": N_("common.error.table_empty"),
    "column_names": N_("common.error.column_names"),
    "no_usable_column": N_("common.error.no_usable_column"),
    "no_features": N_("common.error.no_features"),
    "column_missing": N_("common.error.column_missing"),
    "synthetic_columns": N_("common.error.synthetic_columns"),
    "cuts_order": N_("common.error.cuts_order"),
    "cuts_whole": N_("common.error.cuts_whole"),
    "no_categories": N_("common.error.no_categories"),
    "mbi_missing": N_("common.error.mbi_missing"),
    "spark_missing": N_("common.error.spark_missing"),
    "memory_duckdb": N_("common.error.memory_duckdb"),
    "memory_pandas": N_("common.error.memory_pandas"),
    "memory_spark": N_("common.error.memory_spark"),
    # private quantiles, partition selection, local estimation, selection (dp_core)
    "quantile_candidates_numbers": N_("common.error.quantile_candidates_numbers"),
    "quantile_candidates_empty": N_("common.error.quantile_candidates_empty"),
    "quantile_candidates_many": N_("common.error.quantile_candidates_many"),
    "quantile_candidates_finite": N_("common.error.quantile_candidates_finite"),
    "quantile_candidates_sorted": N_("common.error.quantile_candidates_sorted"),
    "quantile_values_numbers": N_("common.error.quantile_values_numbers"),
    "quantile_values_flat": N_("common.error.quantile_values_flat"),
    "quantile_no_values": N_("common.error.quantile_no_values"),
    "quantile_values_missing": N_("common.error.quantile_values_missing"),
    "quantile_weights_count": N_("common.error.quantile_weights_count"),
    "quantile_weights_range": N_("common.error.quantile_weights_range"),
    "quantile_alpha_order": N_("common.error.quantile_alpha_order"),
    "quantile_bounds_candidates": N_("common.error.quantile_bounds_candidates"),
    "quantile_contributions_whole": N_("common.error.quantile_contributions_whole"),
    "partition_delta_positive": N_("common.error.partition_delta_positive"),
    "partition_delta_max": N_("common.error.partition_delta_max"),
    "partition_threshold": N_("common.error.partition_threshold"),
    "partition_counts_numbers": N_("common.error.partition_counts_numbers"),
    "partition_counts_flat": N_("common.error.partition_counts_flat"),
    "partition_counts_whole": N_("common.error.partition_counts_whole"),
    "partition_column_missing": N_("common.error.partition_column_missing"),
    "partition_persons_over_cap": N_("common.error.partition_persons_over_cap"),
    "partition_labels_count": N_("common.error.partition_labels_count"),
    "partition_label_twice": N_("common.error.partition_label_twice"),
    "local_p_not_above_q": N_("common.error.local_p_not_above_q"),
    "local_category_codes": N_("common.error.local_category_codes"),
    "local_categories_two": N_("common.error.local_categories_two"),
    "local_counts_negative": N_("common.error.local_counts_negative"),
    "local_counts_total": N_("common.error.local_counts_total"),
    "local_true_count": N_("common.error.local_true_count"),
    "local_reported_count": N_("common.error.local_reported_count"),
    "rr_answers_sum": N_("common.error.rr_answers_sum"),
    "rr_gamma": N_("common.error.rr_gamma"),
    "rr_answer_count": N_("common.error.rr_answer_count"),
    "rr_population": N_("common.error.rr_population"),
    "unary_reports": N_("common.error.unary_reports"),
    "selection_scores_numbers": N_("common.error.selection_scores_numbers"),
    "selection_scores_flat": N_("common.error.selection_scores_flat"),
    "selection_no_candidates": N_("common.error.selection_no_candidates"),
    "selection_scores_finite": N_("common.error.selection_scores_finite"),
    "selection_no_record": N_("common.error.selection_no_record"),
    "selection_columns_length": N_("common.error.selection_columns_length"),
    "selection_values_missing": N_("common.error.selection_values_missing"),
    "selection_best_count": N_("common.error.selection_best_count"),
    # contribution bounding, queries, releases and declared domains (dp_core.bounding, …)
    "bounding_table_empty": N_("common.error.bounding_table_empty"),
    "bounding_person_column_missing": N_("common.error.bounding_person_column_missing"),
    "bounding_group_column_missing": N_("common.error.bounding_group_column_missing"),
    "bounding_person_column_gaps": N_("common.error.bounding_person_column_gaps"),
    "bounding_group_column_gaps": N_("common.error.bounding_group_column_gaps"),
    "bounding_value_column_missing": N_("common.error.bounding_value_column_missing"),
    "bounding_value_column_type": N_("common.error.bounding_value_column_type"),
    "bounding_value_column_gaps": N_("common.error.bounding_value_column_gaps"),
    "bounding_value_column_infinite": N_("common.error.bounding_value_column_infinite"),
    "bounding_order_column_missing": N_("common.error.bounding_order_column_missing"),
    "bounding_order_column_gaps": N_("common.error.bounding_order_column_gaps"),
    "bounding_bounds_pair": N_("common.error.bounding_bounds_pair"),
    "bounding_group_column_needed": N_("common.error.bounding_group_column_needed"),
    "bounding_cap_minimum": N_("common.error.bounding_cap_minimum"),
    "bounding_group_caps": N_("common.error.bounding_group_caps"),
    "bounding_sum_bounds": N_("common.error.bounding_sum_bounds"),
    "bounding_no_values": N_("common.error.bounding_no_values"),
    "bounding_lowers_order": N_("common.error.bounding_lowers_order"),
    "bounding_uppers_order": N_("common.error.bounding_uppers_order"),
    "bounding_first_only": N_("common.error.bounding_first_only"),
    "bounding_groups_outside": N_("common.error.bounding_groups_outside"),
    "bounding_units_empty": N_("common.error.bounding_units_empty"),
    "bounding_unit_values": N_("common.error.bounding_unit_values"),
    "laplace_pure_delta": N_("common.error.laplace_pure_delta"),
    "bounding_joint_delta": N_("common.error.bounding_joint_delta"),
    "query_column_numeric": N_("common.error.query_column_numeric"),
    "query_predicate_parts": N_("common.error.query_predicate_parts"),
    "query_category_parts": N_("common.error.query_category_parts"),
    "query_sum_parts": N_("common.error.query_sum_parts"),
    "query_counts_length": N_("common.error.query_counts_length"),
    "release_values_numbers": N_("common.error.release_values_numbers"),
    "release_values_flat": N_("common.error.release_values_flat"),
    "release_values_empty": N_("common.error.release_values_empty"),
    "release_values_finite": N_("common.error.release_values_finite"),
    "release_counts_length": N_("common.error.release_counts_length"),
    "domain_text": N_("common.error.domain_text"),
    "domain_list": N_("common.error.domain_list"),
    "domain_empty": N_("common.error.domain_empty"),
    "domain_size": N_("common.error.domain_size"),
    "domain_labels": N_("common.error.domain_labels"),
    "domain_duplicate": N_("common.error.domain_duplicate"),
    "domain_weights_length": N_("common.error.domain_weights_length"),
    "domain_weights_numbers": N_("common.error.domain_weights_numbers"),
    "domain_weights_range": N_("common.error.domain_weights_range"),
    "domain_rows_mismatch": N_("common.error.domain_rows_mismatch"),
    "domain_values_numeric": N_("common.error.domain_values_numeric"),
    # attacks, Gaussian noise, accounting, composition, the floating-point attack, planned
    # statistics, guarantees, group budgets
    "attack_rates": N_("common.error.attack_rates"),
    "attack_prior": N_("common.error.attack_prior"),
    "attack_epsilon_negative": N_("common.error.attack_epsilon_negative"),
    "attack_mu_negative": N_("common.error.attack_mu_negative"),
    "attack_losses": N_("common.error.attack_losses"),
    "attack_losses_finite": N_("common.error.attack_losses_finite"),
    "gaussian_classic_epsilon": N_("common.error.gaussian_classic_epsilon"),
    "gaussian_epsilon_range": N_("common.error.gaussian_epsilon_range"),
    "gaussian_sigma_positive": N_("common.error.gaussian_sigma_positive"),
    "gaussian_delta_open": N_("common.error.gaussian_delta_open"),
    "gaussian_k_minimum": N_("common.error.gaussian_k_minimum"),
    "accounting_no_releases": N_("common.error.accounting_no_releases"),
    "accounting_gaussian_only": N_("common.error.accounting_gaussian_only"),
    "composition_total_epsilon": N_("common.error.composition_total_epsilon"),
    "composition_releases": N_("common.error.composition_releases"),
    "composition_total_delta": N_("common.error.composition_total_delta"),
    "composition_total_delta_open": N_("common.error.composition_total_delta_open"),
    "float_k_range": N_("common.error.float_k_range"),
    "float_candidates_number": N_("common.error.float_candidates_number"),
    "float_candidates_distinct": N_("common.error.float_candidates_distinct"),
    "plan_sum_column": N_("common.error.plan_sum_column"),
    "plan_mean_column": N_("common.error.plan_mean_column"),
    "plan_histogram_column": N_("common.error.plan_histogram_column"),
    "plan_sum_bounds": N_("common.error.plan_sum_bounds"),
    "plan_mean_bounds": N_("common.error.plan_mean_bounds"),
    "plan_weight": N_("common.error.plan_weight"),
    "plan_target": N_("common.error.plan_target"),
    "group_budget_releases": N_("common.error.group_budget_releases"),
}


def translated(error: Exception | str) -> str:
    """The error's sentence in the session's language (its English sentence when it has no
    code the catalogue knows)."""
    if isinstance(error, CodedError) and error.code in MESSAGES:
        return _(MESSAGES[error.code], **error.params)
    return str(error)


def show_error(text: str, error: Exception, **box: object) -> None:
    """``st.error(text)`` (a sentence that holds ``translated(error)``), then the engine's own
    text of ``error``, if it has one, folded below it."""
    st.error(text, **box)
    detail = getattr(error, "detail", None)
    if detail:
        with st.expander(_("common.error.detail"), icon=":material/terminal:"):
            st.code(detail, language=None, wrap_lines=True)

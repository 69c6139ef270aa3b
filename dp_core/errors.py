"""Errors with a code and parameters: an English sentence for logs and tests, and what an app
needs to write the same sentence in another language (ui.common.errors looks the code up in
its catalogue; no sentence is ever parsed back).

    raise CodedError("epsilon_positive", got="0")
    str(error) -> "epsilon must be greater than 0 (got 0): epsilon = 0 would need infinite noise."
    error.code -> "epsilon_positive", error.params -> {"got": "0"}

An engine's own words (DuckDB's, Spark's, pandas') are never part of the sentence: they go in
``detail``, which the app shows folded below it, as the engine wrote them.

    raise CodedError("path_unreadable", detail=str(engine_error), title="sales")

``ENGLISH`` holds each code's sentence, with the parameters as {placeholders}; the app's
English catalogue holds the same sentences (a test compares them).
"""

from __future__ import annotations

__all__ = ["ENGLISH", "CodedError"]

ENGLISH = {
    # argument checks (dp_core.validation)
    "number": "{name} must be a number (got {got}).",
    "epsilon_finite": "epsilon must be finite: an infinite epsilon gives no privacy.",
    "epsilon_negative": "epsilon cannot be negative (got {got}).",
    "epsilon_positive": (
        "epsilon must be greater than 0 (got {got}): epsilon = 0 would need infinite noise."
    ),
    "delta_range": "delta must be at least 0 and below 1 (got {got}).",
    "delta_positive": (
        "delta must be greater than 0 for this mechanism; pure (epsilon, 0)-DP needs the Laplace "
        "mechanism."
    ),
    "positive": "{name} must be a finite number greater than 0 (got {got}).",
    "bounds_finite": "clipping bounds must be finite numbers.",
    "bounds_order": "the lower bound must be below the upper bound (got {got}).",
    "probability_open": "{name} must lie strictly between 0 and 1 (got {got}).",
    "probability_closed": "{name} must lie between 0 and 1 (got {got}).",
    "whole": "{name} must be a whole number (got {got}).",
    "minimum": "{name} must be at least {minimum} (got {got}).",
    "choice": "{name} must be one of {choices} (got {got}).",
    # a user's own CSV file and table (data.own_csv, data.registry)
    "csv_empty": "“{name}” is empty: a CSV needs a header row and at least one row.",
    "csv_size": "“{name}” is {size} MB; files up to {limit} MB can be explored here.",
    "csv_binary": (
        "“{name}” does not look like a text file: is it a spreadsheet? Save it as CSV first."
    ),
    "csv_fields": "“{name}” has rows with more fields than its header row; check the separator.",
    "csv_columns": "“{name}” has no columns to read.",
    "csv_unreadable": "“{name}” could not be read as CSV.",
    "csv_rows": "“{name}” has more than {rows} rows; use a sample.",
    "csv_no_rows": "“{name}” has a header row but no data rows.",
    "table_empty": "The table is empty: it needs at least one row and one column.",
    "column_names": "Every column needs a text name (a header row in a CSV file).",
    "no_usable_column": (
        "No usable column: a column needs numbers or at most {limit} distinct text values, and "
        "not only missing values."
    ),
    # a model's declared inputs (dp_core.model_table)
    "no_features": "The model needs at least one feature: a numeric column or a category.",
    "column_missing": "The table has no column “{column}”.",
    # synthetic data (dp_core.synthetic)
    "synthetic_columns": "A synthetic table needs at least two columns.",
    "cuts_order": (
        "The cut points of “{column}” must be finite numbers, in increasing order, at least one."
    ),
    "cuts_whole": (
        "“{column}” is declared to hold whole numbers, so its cut points must be whole numbers."
    ),
    "no_categories": "“{column}” has no declared categories.",
    "mbi_missing": (
        "Synthetic data needs OpenDP's marginal-based synthesizers, an optional extra of about "
        '550 MB (JAX): pip install "opendp[mbi]==0.16.0"'
    ),
    # the Spark engine for data by path (data.sources.spark_engine)
    "spark_missing": (
        "The Spark engine needs Spark's Python client, an optional extra of about 490 MB (and "
        'Java 17 for a local master): pip install "pyspark==4.3.0"'
    ),
    # an engine short of memory (data.sources)
    "memory_duckdb": (
        "DuckDB ran out of its working memory of {limit} on “{title}”: give it more with the "
        "environment variable DP_EXPLORER_DUCKDB_MEMORY (for example 8GB), or free disk space "
        "in {folder}, where it writes what does not fit."
    ),
    "spill_duckdb": (
        "DuckDB ran out of disk for “{title}”: what does not fit in its working memory of "
        "{memory} goes to {folder}, which may hold {limit} and has {free} free. Free disk space "
        "there, point the environment variable TMPDIR at a larger disk, or let it hold more "
        "with DP_EXPLORER_DUCKDB_SPILL (for example 100GB)."
    ),
    "memory_pandas": (
        "“{title}” does not fit in this machine's memory for the pandas engine: choose DuckDB, "
        "which reads it where it lies."
    ),
    "memory_spark": (
        "Spark ran out of memory on “{title}”: give its driver more with the environment "
        "variable DP_EXPLORER_SPARK_MEMORY (for example 8g), or run it on a cluster."
    ),
    # release plans (dp_core.planner); numbers stay numbers, for the reader's number format
    "plan_empty": "the plan is empty: add at least one statistic.",
    "no_target": "“{name}” has no target: give a ± half-width or a weight.",
    "no_targets": (
        "every statistic needs a target to work backwards; {names} has none. Give it a ± "
        "half-width, or split a total budget instead."
    ),
    "zero_value": (
        "“{name}”: its true value is 0, so no ε gives a relative accuracy on it (any noise is an "
        "infinite relative error). Give an absolute target instead."
    ),
    "zero_target": "“{name}”: a target of ±0 needs infinite ε.",
    "unreachable": (
        "“{name}”: ±{wanted:.4g} at 95% needs ε = {epsilon:.4g}, beyond {limit:g}, where a "
        "guarantee no longer means anything. Loosen the target, raise the clipping bounds' "
        "precision (narrower [L, U]) or lower the cap."
    ),
    "zero_minimax": (
        "“{name}” has a true value of 0: its relative error is infinite whatever its ε, so the "
        "worst relative error cannot be minimised. Split equally or by weight."
    ),
    "histogram_categories": "“{name}”: a histogram needs its public categories.",
    "count_table_values": "“{name}”: a count table has no values to sum or average.",
    # private quantiles, partition selection, local estimation, randomized response, unary
    # encoding, selection (dp_core.private_quantile, partition_selection, local_estimation,
    # randomized_response, unary_encoding, selection, selection_scores, noisy_max, exponential)
    "quantile_candidates_numbers": "the candidates must be numbers.",
    "quantile_candidates_empty": "give at least one candidate, as a flat list of numbers.",
    "quantile_candidates_many": (
        "at most {limit} candidates are allowed (got {got}); use a coarser grid."
    ),
    "quantile_candidates_finite": "every candidate must be a finite number.",
    "quantile_candidates_sorted": (
        "the candidates must be sorted from smallest to largest, each once."
    ),
    "quantile_values_numbers": "the values must be numbers.",
    "quantile_values_flat": "the values must be a flat list of numbers.",
    "quantile_no_values": "there are no values: a quantile needs data.",
    "quantile_values_missing": "the values have missing entries: drop them first.",
    "quantile_weights_count": "give one weight per value ({weights} weights for {values} values).",
    "quantile_weights_range": "the weights must be finite numbers of at least 0.",
    "quantile_alpha_order": "the lower bound's alpha must be below the upper bound's alpha.",
    "quantile_bounds_candidates": "clipping bounds need at least two candidates.",
    "quantile_contributions_whole": (
        "the contributions per person must be whole numbers of at least 0."
    ),
    "partition_delta_positive": (
        "partition selection needs delta greater than 0: with delta = 0 a category found only "
        "in the data could never be released. Declare the categories instead."
    ),
    "partition_delta_max": (
        "delta must be at most {top} for partition selection with up to {max_partitions} "
        "categories per person (got {got}); useful values are tiny, e.g. 1e-6."
    ),
    "partition_threshold": "the threshold must be a finite number of at least 1 (got {got}).",
    "partition_counts_numbers": "the person counts must be numbers, one per category.",
    "partition_counts_flat": "the person counts must be a flat list, one number per category.",
    "partition_counts_whole": "the person counts must be whole numbers of at least 0.",
    "partition_column_missing": "the category column '{column}' is not in the table.",
    "partition_persons_over_cap": (
        "some persons are in more than {l0} categories: cap each person at {l0} categories "
        "before selecting (contribution bounding), or raise l0."
    ),
    "partition_labels_count": (
        "there must be one person count per label ({counts} counts, {labels} labels)."
    ),
    "partition_label_twice": "a label appears twice: each category must be one candidate.",
    "local_p_not_above_q": (
        "p (the chance of reporting a value you hold) must be greater than q (the chance of "
        "reporting one you do not hold); with p <= q the reports say nothing about the truth, "
        "or say it backwards (got p = {p}, q = {q})."
    ),
    "local_category_codes": "category codes must lie between {lowest} and {highest}.",
    "local_categories_two": (
        "frequency estimation needs at least 2 categories: with a single category every person "
        "holds it and there is nothing to estimate."
    ),
    "local_counts_negative": "counts per category must be whole numbers of at least 0.",
    "local_counts_total": "counts per category must be whole numbers adding up to at least 1.",
    "local_true_count": "a true count must lie between 0 and the number of respondents.",
    "local_reported_count": "a reported count must lie between 0 and the number of respondents.",
    "rr_answers_sum": "P(yes | answer) and P(no | answer) must add up to 1 for each answer.",
    "rr_gamma": "gamma must lie between -1/2 and 1/2 (got {got}).",
    "rr_answer_count": "a categorical question needs a whole number of at least 2 answers.",
    "rr_population": "a sample or a yes count cannot exceed the population ({population}).",
    "unary_reports": (
        "{reports} reports cannot come from the {persons} persons holding a category: every "
        "person sends one report."
    ),
    "selection_scores_numbers": "scores must be numbers, one per candidate.",
    "selection_scores_flat": "scores must be a flat list with one number per candidate.",
    "selection_no_candidates": "there are no candidates to choose from (the column is empty).",
    "selection_scores_finite": "every score must be a finite number.",
    "selection_no_record": "count / largest count needs at least one record.",
    "selection_columns_length": "values and groups must be two columns of the same length.",
    "selection_values_missing": (
        "every value must be a number (fill or drop the empty ones first)."
    ),
    "selection_best_count": "there cannot be more best candidates than candidates.",
    # bounding, queries, releases, declared domains (dp_core.bounding, queries, release, domains)
    "bounding_table_empty": "the table is empty: there is nothing to bound.",
    "bounding_person_column_missing": "the person column '{column}' is not in the table.",
    "bounding_group_column_missing": "the group column '{column}' is not in the table.",
    "bounding_person_column_gaps": (
        "the person column '{column}' has {count} missing value(s): every record needs a person, "
        "or its contribution cannot be bounded."
    ),
    "bounding_group_column_gaps": (
        "the group column '{column}' has {count} missing value(s): every record needs a group, "
        "or its contribution cannot be bounded."
    ),
    "bounding_value_column_missing": "the value column '{column}' is not in the table.",
    "bounding_value_column_type": (
        "the value column '{column}' is not numeric (type {dtype}): only numbers can be clipped "
        "and summed."
    ),
    "bounding_value_column_gaps": "the value column '{column}' has missing values.",
    "bounding_value_column_infinite": (
        "the value column '{column}' has infinite values: clip or drop them first."
    ),
    "bounding_order_column_missing": "the order column '{column}' is not in the table.",
    "bounding_order_column_gaps": "the order column '{column}' has missing values.",
    "bounding_bounds_pair": "give both clipping bounds [L, U], or neither (counts only).",
    "bounding_group_column_needed": "a cap per group needs a group column.",
    "bounding_cap_minimum": "a cap must be at least 1.",
    "bounding_group_caps": "the cap on groups per person must be at least 1.",
    "bounding_sum_bounds": "a sum needs clipping bounds [L, U]: its sensitivity depends on them.",
    "bounding_no_values": "a sum needs a value column.",
    "bounding_lowers_order": "the lower bounds to compare must be increasing.",
    "bounding_uppers_order": "the upper bounds to compare must be increasing.",
    "bounding_first_only": 'a random choice is drawn from the rows: only "first" is exact here.',
    "bounding_groups_outside": (
        "{rows} rows hold a group outside the {groups} released groups: drop them before "
        "bounding (their values are never shown)."
    ),
    "bounding_units_empty": "a contribution table needs at least one unit of at least one record.",
    "bounding_unit_values": "give one value per record: the units' sizes add up to the values.",
    "laplace_pure_delta": "Laplace noise is pure ε-DP: its δ must be 0.",
    "bounding_joint_delta": (
        "one release of all {groups} groups gets δ = {groups} × {delta} = {total}, which must be "
        "below 1 (and should be far below 1 / the number of persons): lower δ."
    ),
    "query_column_numeric": "column “{column}” is not numeric, so it cannot be summed.",
    "query_predicate_parts": "a predicate query needs a column, a comparison and a value.",
    "query_category_parts": "a query per category needs a category column and its categories.",
    "query_sum_parts": "a clipped sum or mean needs a value column and bounds [L, U].",
    "query_counts_length": "give one count per released category.",
    "release_values_numbers": "the values to release must be numbers.",
    "release_values_flat": (
        "the values to release must be a flat list of numbers (got {dimensions} dimensions)."
    ),
    "release_values_empty": "there are no values to release: the vector is empty.",
    "release_values_finite": "the values to release must be finite numbers (no NaN or infinity).",
    "release_counts_length": "there must be one person count per category.",
    "domain_text": "the declared categories must be text (got {got}).",
    "domain_list": (
        "the declared categories must be a list of names, not one piece of text "
        "(parse_declared_categories splits text)."
    ),
    "domain_empty": (
        "no categories were declared: type the possible categories, one per line or separated by "
        "commas."
    ),
    "domain_size": (
        "{count} categories were declared; at most {limit} are allowed. Declare the categories "
        "the question is about, not the data's values."
    ),
    "domain_labels": "every declared category must be non-empty text without outer spaces.",
    "domain_duplicate": "a category is declared twice: each category must appear once.",
    "domain_weights_length": (
        "there must be one weight per row ({weights} weights for {rows} rows)."
    ),
    "domain_weights_numbers": "the count column must hold numbers.",
    "domain_weights_range": "the count column must hold finite numbers of at least 0.",
    "domain_rows_mismatch": "the category and value columns must have the same number of rows.",
    "domain_values_numeric": "the value column is not numeric, so it cannot be clipped and summed.",
    # attacks, Gaussian noise, accounting, composition, the floating-point attack, planned
    # statistics, guarantees, group budgets (dp_core.attacks, .gaussian, .accountants,
    # .composition, .floating_point_attack, .planner, .guarantee, .group_budgets)
    "attack_rates": "false positive rates must lie between 0 and 1.",
    "attack_prior": "the prior must be a probability between 0 and 1.",
    "attack_epsilon_negative": "epsilon cannot be negative.",
    "attack_mu_negative": "mu cannot be negative.",
    "attack_losses": "the attack needs the losses of members and of held-out examples.",
    "attack_losses_finite": "every loss must be a finite number.",
    "gaussian_classic_epsilon": (
        "The classic Gaussian calibration is proven only for epsilon below 1 (got {got}) "
        "(Dwork & Roth 2014, Thm A.1); use the analytic calibration instead."
    ),
    "gaussian_epsilon_range": "epsilon must be a finite number of at least 0.",
    "gaussian_sigma_positive": "sigma must be a finite number greater than 0.",
    "gaussian_delta_open": "delta must lie strictly between 0 and 1 here.",
    "gaussian_k_minimum": "k must be at least 1.",
    "accounting_no_releases": "there is no release to account for.",
    "accounting_gaussian_only": "the exact Gaussian total needs every release to be Gaussian.",
    "composition_total_epsilon": "the total epsilon must be a number of at least 0.",
    "composition_releases": "the number of releases k must be a whole number of at least 1.",
    "composition_total_delta": "the total delta must be at least 0 and below 1.",
    "composition_total_delta_open": "the total delta must lie strictly between 0 and 1.",
    "float_k_range": "k must be a whole number from 1 to 2^53 - 1.",
    "float_candidates_number": "the two candidate inputs must be numbers.",
    "float_candidates_distinct": (
        "the two candidate inputs must be different finite numbers (got {first}, {second})."
    ),
    "plan_sum_column": "a sum needs a column.",
    "plan_mean_column": "a mean needs a column.",
    "plan_histogram_column": "a histogram needs a column.",
    "plan_sum_bounds": "a sum needs clipping bounds [L, U].",
    "plan_mean_bounds": "a mean needs clipping bounds [L, U].",
    "plan_weight": "the weight must be a number above 0 (got {got}).",
    "plan_target": (
        "the target must be a number above 0 (got {got}): it is the ± half-width the statistic "
        "should be within, 95% of the time."
    ),
    "group_budget_releases": "at least one release is needed to count a budget.",
    # data read from a path, a shipped dataset, an own table (data.registry, data.sources:
    # source, duckdb_engine, spark_engine, results, capped, describe, units, sql_engine,
    # frame_statistics, keys); an engine's own words go in the detail
    "dataset_column": "There is no column {column} in this dataset.",
    "dataset_category_column": (
        "{column} is not a category column of {title}. Category columns: {offered}."
    ),
    "dataset_no_category_columns": (
        "{column} is not a category column of {title}: it has no category columns."
    ),
    "dataset_frame": "Expected a table (pandas DataFrame) of rows and columns.",
    "dataset_person_id": "The person id column {column} is not in the table.",
    "dataset_count_column": "The count column {column} is not in the table.",
    "dataset_count_whole": "The count column {column} must hold whole numbers >= 0.",
    "source_frame": "expected a table (pandas DataFrame) of rows and columns.",
    "path_empty": (
        "type a path: a Parquet or CSV file, a folder, a pattern such as data/*.parquet, or a "
        "DuckDB file and table (shop.duckdb:visits)."
    ),
    "path_files_empty": "type a path to Parquet or CSV files.",
    "path_no_match": "no file matches '{location}': check the folder and the pattern.",
    "path_folder_empty": "the folder '{location}' holds no Parquet or CSV file.",
    "path_missing": "there is no file or folder at '{location}'.",
    "path_unreadable": "'{path}' cannot be read.",
    "path_not_parquet": "'{path}' is named like a Parquet file but is not one (no PAR1 mark).",
    "path_binary_csv": "'{path}' is named like a CSV file but holds binary data.",
    "path_kind": (
        "'{path}' is neither a Parquet nor a CSV file: give .parquet or .csv files (a spreadsheet "
        "must be saved as CSV first)."
    ),
    "path_mixed": "the files mix Parquet and CSV: point at one kind (e.g. *.parquet).",
    "pandas_duckdb": (
        "the pandas engine reads files, not DuckDB databases: choose the DuckDB engine."
    ),
    "pandas_unreadable": "pandas could not read '{path}'.",
    "duckdb_file_missing": "there is no DuckDB database file at '{path}'.",
    "duckdb_table_unnamed": "name the table to read in the DuckDB database (file.duckdb:table).",
    "duckdb_table_name": "name the table to read: {path}:<table>.",
    "duckdb_unopenable": "'{path}' could not be opened as a DuckDB database.",
    "duckdb_no_table": (
        "the DuckDB database '{database}' has no table '{table}'; its tables are: {tables}."
    ),
    "duckdb_no_tables": (
        "the DuckDB database '{database}' has no table '{table}'; it holds no tables."
    ),
    "duckdb_unreadable": "'{title}' could not be read.",
    "spark_address": (
        "the Spark address '{address}' names no host and port (e.g. spark://host:7077 or "
        "sc://host:15002)."
    ),
    "spark_unreachable": (
        "the Spark master at '{address}' cannot be reached: check the address, or unset "
        "DP_EXPLORER_SPARK to use DuckDB."
    ),
    "spark_connect_unreachable": (
        "the Spark Connect server at '{address}' cannot be reached: check the address, or unset "
        "DP_EXPLORER_SPARK to use DuckDB."
    ),
    "spark_connect_missing": (
        "Spark Connect needs its client libraries: pip install 'pyspark[connect]'."
    ),
    "spark_start": "Spark could not start at '{address}' (a local master needs Java 17 or later).",
    "spark_connect_start": (
        "The Spark Connect server at '{address}' answered but opened no session."
    ),
    "spark_duckdb": (
        "a DuckDB database is read by the DuckDB engine: choose DuckDB, or export the table to "
        "Parquet (COPY visits TO 'visits.parquet') for Spark."
    ),
    "spark_unreadable": "Spark could not read '{title}'.",
    "spark_failed": "Spark could not compute on '{title}'.",
    "source_person_absent": (
        "the person column '{column}' is not in the table; its columns are: {columns}."
    ),
    "source_group_absent": (
        "the group column '{column}' is not in the table; its columns are: {columns}."
    ),
    "source_value_absent": (
        "the value column '{column}' is not in the table; its columns are: {columns}."
    ),
    "source_order_absent": (
        "the order column '{column}' is not in the table; its columns are: {columns}."
    ),
    "source_category_absent": (
        "the category column '{column}' is not in the table; its columns are: {columns}."
    ),
    "source_predicate_absent": (
        "the predicate column '{column}' is not in the table; its columns are: {columns}."
    ),
    "source_person_kind": (
        "the person column '{column}' holds {type} values; it needs numbers, text, dates or "
        "booleans."
    ),
    "source_group_kind": (
        "the group column '{column}' holds {type} values; it needs numbers, text, dates or "
        "booleans."
    ),
    "source_value_kind": (
        "the value column '{column}' holds {type} values; it needs numbers, text, dates or "
        "booleans."
    ),
    "source_order_kind": (
        "the order column '{column}' holds {type} values; it needs numbers, text, dates or "
        "booleans."
    ),
    "source_category_kind": (
        "the category column '{column}' holds {type} values; it needs numbers, text, dates or "
        "booleans."
    ),
    "source_predicate_kind": (
        "the predicate column '{column}' holds {type} values; it needs numbers, text, dates or "
        "booleans."
    ),
    "source_value_numbers": (
        "the value column '{column}' holds {type} values; it needs integer or float."
    ),
    "source_person_missing": (
        "the person column '{column}' has {missing} missing value(s): every row needs a person, or "
        "its contribution cannot be bounded."
    ),
    "source_group_missing": (
        "the group column '{column}' has {missing} missing value(s): every row needs a group, or "
        "its contribution cannot be bounded."
    ),
    "source_value_missing": (
        "the value column '{column}' has {missing} missing value(s): every row needs a value, or "
        "its contribution cannot be bounded."
    ),
    "source_order_missing": (
        "the order column '{column}' has {missing} missing value(s): every row needs an order, or "
        "its contribution cannot be bounded."
    ),
    "source_category_missing": (
        "the category column '{column}' has {missing} missing value(s): every row needs a "
        "category, or its contribution cannot be bounded."
    ),
    "source_value_infinite": (
        "the value column '{column}' has {count} infinite or NaN value(s): drop or replace them "
        "first."
    ),
    "source_sum_bounds": "a sum needs clipping bounds [L, U]: give them in the bounding.",
    "source_first_order": (
        "'first' selection needs an order column (such as a time): a file or a table has no row "
        "order that every engine keeps."
    ),
    "source_rows_cap": "the cap on rows per person must be at least 1.",
    "source_bounds_reversed": "the lower bound must be at most the upper bound.",
    "source_not_numeric_sum": "column “{column}” is not numeric, so it cannot be summed.",
    "source_not_numeric_compare": "column “{column}” is not numeric, so it cannot be compared.",
    "source_column_named": "there is no column named '{column}'.",
    "source_groups_unnamed": "name the released groups: there is nothing to bound without them.",
    "source_released_no_rows": "no row is in the released groups.",
}


class CodedError(ValueError):
    """A ValueError whose sentence is ``ENGLISH[code]`` filled with ``params`` (text, or
    numbers that the app writes in the reader's format), and ``detail``, an engine's own text
    (or None), after it on a line of its own."""

    def __init__(self, code: str, *, detail: str | None = None, **params: object) -> None:
        self.code = code
        self.params = params
        self.detail = detail.strip() if detail and detail.strip() else None
        sentence = ENGLISH[code].format(**params)
        super().__init__(sentence if self.detail is None else f"{sentence}\n{self.detail}")

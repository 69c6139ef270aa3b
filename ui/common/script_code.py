"""Code that more than one generated OpenDP script holds (ui.bounding.script,
ui.planner.script_template), written once. Each is a value for a str.format field of the
scripts' templates: its first line goes where the field stands, its other lines carry their
own indentation."""

# The body of read_table(path): a DuckDB table (file.duckdb:table) or a CSV file, read whole;
# what follows it in read_table reads Parquet.
READ_DUCKDB_OR_CSV = r"""head, _, table = path.rpartition(":")
    if head.lower().endswith((".duckdb", ".ddb", ".db")):
        import duckdb

        with duckdb.connect(head, read_only=True) as con:
            return con.table(table).df()
    if path.lower().endswith((".csv", ".tsv", ".csv.gz", ".tsv.gz")):
        return pd.read_csv(path, sep="\t" if ".tsv" in path.lower() else ",")"""

# The body of category_keys(values): the values as text to compare categories by, a whole
# number stored as a float (3.0) as "3".
CATEGORY_KEYS = r"""def key(value):
        if pd.isna(value):
            return None
        if isinstance(value, float) and value.is_integer() and abs(value) < 2.0**53:
            return str(int(value))
        return str(value).strip()

    return values.map(key)"""

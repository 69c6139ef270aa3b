"""Write the CSV datasets shipped in data/, reproducing published aggregates exactly.

Run from the project root:  python3 -m data.generate [OUT_DIR]   (default: data/)

Every dataset is drawn from a numpy Generator with a fixed seed and written with a fixed
CSV format, so a re-run writes byte-identical files (tests/test_data.py checks this).
The published figures each dataset reproduces are stated next to its generator; the
figures come from /work/shared/README.md (facts about public sources, no data copied).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

DATA_DIR = Path(__file__).resolve().parent
SEED = 20_260_101


def _rng(salt: int) -> np.random.Generator:
    """One independent, seeded stream per dataset, so editing one leaves the others alone."""
    return np.random.default_rng([SEED, salt])


def _labels(rng: np.random.Generator, counts: dict[str, int]) -> np.ndarray:
    """A shuffled vector holding each label exactly ``counts[label]`` times."""
    return rng.permutation(np.repeat(list(counts), list(counts.values())))


# --- diseases ------------------------------------------------------------------------------
# Published (Swiss DP teaching notebooks, exponential mechanism): 65 persons,
# Diabetes 24, Hepatitis 8, Flu ("Grippe") 28, HIV 5.
DISEASE_COUNTS = {"Diabetes": 24, "Hepatitis": 8, "Flu": 28, "HIV": 5}


def make_diseases() -> pd.DataFrame:
    """65 persons, one disease each, in a seeded random order."""
    disease = _labels(_rng(1), DISEASE_COUNTS)
    return pd.DataFrame({"person_id": np.arange(1, disease.size + 1), "disease": disease})


# --- industry groups -----------------------------------------------------------------------
# Published (Swiss DP teaching notebooks' industry-group table, New Zealand industry names):
# rows per industry group; 37,080 rows in 119 groups, most common 682, next ten 576 each.
# The two lower-case names at the end are separate groups in the source.
INDUSTRY_GROUP_COUNTS: tuple[tuple[str, int], ...] = (
    ("Public Order, Safety and Regulatory Services", 682),
    ("Beverage and Tobacco Product Manufacturing", 576),
    ("Fabricated Metal Product Manufacturing", 576),
    ("Non-Metallic Mineral Product Manufacturing", 576),
    ("Petroleum and Coal Product Manufacturing", 576),
    ("Polymer Product and Rubber Product Manufacturing", 576),
    ("Primary Metal and Metal Product Manufacturing", 576),
    ("Printing", 576),
    ("Pulp, Paper and Converted Paper Product Manufacturing", 576),
    ("Transport Equipment Manufacturing", 576),
    ("Wood Product Manufacturing", 576),
    ("Rental and Hiring Services (except Real Estate)", 544),
    ("Construction Services", 528),
    ("Heavy and Civil Engineering Construction", 528),
    ("Road Transport", 528),
    ("Forestry and Logging", 496),
    ("Dairy Cattle Farming", 480),
    ("Horticulture and Fruit Growing", 480),
    ("Poultry, Deer and Other Livestock Farming", 480),
    ("Sheep, Beef Cattle and Grain Farming", 480),
    ("Auxiliary Finance and Insurance Services", 400),
    ("Accommodation", 288),
    ("Accommodation and Food Services", 288),
    ("Basic Chemical and Chemical Product Manufacturing", 288),
    ("Basic Material Wholesaling", 288),
    ("Clothing, Knitted Products and Footwear Manufacturing", 288),
    ("Commission Based Wholesaling", 288),
    ("Department Stores", 288),
    ("Electronic and Electrical Equipment Manufacturing", 288),
    ("Food and Beverage Services", 288),
    ("Furniture Manufacturing", 288),
    ("Furniture and Other Manufacturing", 288),
    ("Furniture, Electrical and Hardware Retailing", 288),
    ("Grocery, Liquor and Tobacco Product Wholesaling", 288),
    ("Machinery Manufacturing", 288),
    ("Machinery and Equipment Wholesaling", 288),
    ("Machinery and Other Equipment Manufacturing", 288),
    ("Manufacturing", 288),
    ("Motor Vehicle and Motor Vehicle Parts Wholesaling", 288),
    ("Motor Vehicle and Motor Vehicle Parts and Fuel Retailing", 288),
    ("Non-Store and Commission Based Retailing", 288),
    ("Other Goods Wholesaling", 288),
    ("Other Manufacturing", 288),
    ("Other Store-Based Retailing and Non Store Retailing", 288),
    ("Pharmaceutical and Other Store Based Retailing", 288),
    ("Pharmaceutical, Cleaning and Other Chemical Manufacturing", 288),
    ("Recreational, Clothing, Footwear and Personal Accessory Retailing", 288),
    ("Retail Trade and Accommodation", 288),
    ("Supermarket, Grocery Stores and Specialised Food Retailing", 288),
    ("Textile and Leather Manufacturing", 288),
    ("Textile, Leather, Clothing and Footwear Manufacturing", 288),
    ("Wholesale Trade", 288),
    ("Banking and Financing", 272),
    ("Finance", 272),
    ("Financial Asset Investing", 272),
    ("Financial and Insurance Services", 272),
    ("Non-Financial Asset Leasing", 272),
    ("Non-Residential Property Operation", 272),
    ("Property Operators and Real Estate Services", 272),
    ("Real Estate Services", 272),
    ("Rental, Hiring and Real Estate Services", 272),
    ("Administrative and Support Services", 264),
    ("Advertising, Market Research and Management Services", 264),
    ("Basic Chemical and Basic Polymer Manufacturing", 264),
    ("Building Cleaning, Pest Control and Other Support Services", 264),
    ("Building Construction", 264),
    ("Computer System Design and Related Services", 264),
    ("Construction", 264),
    ("Electricity and Gas Supply", 264),
    ("Electricity, Gas, Water and Waste Services", 264),
    ("Employment and Other Administrative Services", 264),
    ("Fertiliser and Pesticide Manufacturing", 264),
    ("Information Media Services", 264),
    ("Information Media and Telecommunications", 264),
    ("Legal and Accounting Services", 264),
    ("Mining", 264),
    ("Non-Residential Building Construction", 264),
    ("Postal and Courier Pick Up and Delivery Services", 264),
    ("Postal, Courier, Transport Support, and Warehousing Services", 264),
    ("Professional, Scientific and Technical Services", 264),
    ("Professional, Scientific, Technical, Administrative and Support Services", 264),
    ("Rail, Water, Air and Other Transport", 264),
    ("Residential Building Construction", 264),
    ("Scientific, Architectural and Engineering Services", 264),
    ("Telecommunications, Internet and Library Services", 264),
    ("Transport Support Services", 264),
    ("Transport, Postal and Warehousing", 264),
    ("Travel Agency and Tour Arrangement Services", 264),
    ("Veterinary and Other Professional Services", 264),
    ("Warehousing and Storage Services", 264),
    ("Water, Sewerage, Drainage and Waste Services", 264),
    ("Arts and Recreation Services", 256),
    ("Arts, Recreation and Other Services", 256),
    ("Civil, Professional and Other Interest Groups", 256),
    ("Gambling Activities", 256),
    ("Heritage and Artistic Activities", 256),
    ("Other Services", 256),
    ("Personal Care, Funeral and Other Personal Services", 256),
    ("Repair and Maintenance", 256),
    ("Sport and Recreation Activities", 256),
    ("Food Product Manufacturing", 252),
    ("Agriculture, Forestry and Fishing", 248),
    ("Agriculture, Forestry and Fishing Support Services and Hunting", 248),
    ("All industries", 248),
    ("Adult, Community and Other Education", 240),
    ("Education and Training", 240),
    ("Fishing and Aquaculture", 240),
    ("Health Care and Social Assistance", 240),
    ("Hospitals", 240),
    ("Medical and Other Health Care Services", 240),
    ("Preschool Education", 240),
    ("Residential Care Services and Social Assistance", 240),
    ("School Education", 240),
    ("Tertiary Education", 240),
    ("Health and General Insurance", 200),
    ("Insurance", 200),
    ("Life Insurance", 200),
    ("Public order, safety and regulatory services", 62),
    ("Food product manufacturing", 36),
)


def make_industry_groups() -> pd.DataFrame:
    """The published count table as it stands (no randomness)."""
    names, counts = zip(*INDUSTRY_GROUP_COUNTS, strict=True)
    return pd.DataFrame({"industry_group": names, "count": counts})


# --- writing -------------------------------------------------------------------------------
GENERATORS: dict[str, Callable[[], pd.DataFrame]] = {
    "diseases.csv": make_diseases,
    "industry_groups.csv": make_industry_groups,
}


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """Fixed format: no index, '\\n' line ends, UTF-8, missing values as empty fields."""
    frame.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")


def generate(out_dir: Path = DATA_DIR) -> list[Path]:
    """Write every dataset into ``out_dir``; return the paths written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in GENERATORS.items():
        path = out_dir / name
        write_csv(make(), path)
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in generate(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA_DIR):
        print(written)

"""The public corpora veristep benchmarks read, each pinned to an upstream commit and SHA-256.

A file with an ``upstream`` path is that file of the repository at the pinned commit, byte for byte,
so ``veristep data fetch`` can download and verify it. A file without one was derived (converted,
sliced or measured) and is listed so its hash can still be checked; it cannot be fetched as is.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class CorpusFile:
    path: str  # inside the corpus folder
    upstream: str | None  # path in the upstream repository at the pinned commit; None: derived
    size: int
    sha256: str


@dataclass(frozen=True)
class Corpus:
    name: str
    repo: str  # owner/name on GitHub
    commit: str
    licence: str
    files: tuple[CorpusFile, ...]

    @property
    def source(self) -> str:
        return f"github.com/{self.repo}"

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    @property
    def sha256(self) -> str:
        """One hash for the whole corpus: of its sorted ``<sha256>  <path>`` manifest lines."""
        lines = sorted(f"{f.sha256}  {f.path}\n" for f in self.files)
        return hashlib.sha256("".join(lines).encode()).hexdigest()


F = CorpusFile

CATALOG: tuple[Corpus, ...] = (
    Corpus(
        "stack_equiv",
        "maths/moodle-qtype_stack",
        "a14f3034a0e45aab27dcae96c526a6095dbf6ef7",
        "CC-BY-SA-4.0",
        (
            F(
                "README.md",
                None,
                3517,
                "81311b220a8140e74f17624621ff10ea154660a539a6731abeb7e60695e0ad43",
            ),
            F(
                "stack_answertest_results.json",
                None,
                543377,
                "7d9c4431f0eb472d8df7b03aebb9ab75fc30d970628cfde74cbd3837dabcee1e",
            ),
            F(
                "stack_equiv_latex.json",
                None,
                120055,
                "fafa17b51c4f79ff1efb2aae596d9be1f2a6207aaed56801528b5ce78b3517b3",
            ),
            F(
                "stack_pairs.jsonl",
                None,
                160927,
                "084f4651553de0841ef45b7c52572c24825c3cc48861e74637e36bacabc6c248",
            ),
        ),
    ),
    Corpus(
        "etp",
        "teorth/equational_theories",
        "54edcda2f320cef0a241f8109fa164f901a69b87",
        "Apache-2.0",
        (
            F(
                "2024-11-10-outcomes.json.zip",
                "data/2024-11-10-outcomes.json.zip",
                2150072,
                "eb8707f4de2d1487973a76200ced237ddb2650c1c483e12b826e0e1f49185cd0",
            ),
            F(
                "Austin_implications.txt",
                "data/Austin_implications.txt",
                24314,
                "38d357e116a578cd6654908c0346b4c6ee70dc801ab0a9b542a604206d926c11",
            ),
            F(
                "LICENSE",
                "LICENSE",
                11377,
                "c6be243aa954228fc83b68a08e769bf3c561a64fb515cbbd470046d006c18bbf",
            ),
            F(
                "duals.json",
                "data/duals.json",
                31201,
                "08e5aa39ddfc84c1b76f128b2b437293b6e7a7a6b1b4cb0d3052bdd429dea87f",
            ),
            F(
                "eq_size5.txt",
                "data/eq_size5.txt",
                2666870,
                "7fb9c0e85bee412baa7030bafec311c65a75502a2c25bdd0b94171b324585b1d",
            ),
            F(
                "equations.txt",
                "data/equations.txt",
                162158,
                "e30e1a6735011ff36fdb228d37b232eb7cda9d4a836cbbefc69c07e6871c8010",
            ),
            F(
                "order5_blueprint_tables.jsonl",
                None,
                20002,
                "c2b4e946e48ddef148a717fffa2781f7be7e49cd7e8f6d3cd317554a4aed4e72",
            ),
        ),
    ),
    Corpus(
        "alps_dev",
        "EricX22/equational-theories-lean-stage2",
        "834d4351d49b4d3065c4c1d79b5a417900afeee9",
        "Apache-2.0",
        (
            F(
                "LICENSE",
                "LICENSE",
                11287,
                "d81802ae45523b54556472cb504d50621f5bebb05555eaea7f13dc7473e84dab",
            ),
            F(
                "baseline_v1_sample_sweep.jsonl",
                None,
                722574,
                "d8a9dd4ae45725f8a1188621819f4dc34bbef2db4253d3d20f044234cedcf876",
            ),
            F(
                "cert63_laws.jsonl",
                "paper/supplementary/corpus/cert63_laws.jsonl",
                4367,
                "b076d9107cb4b8f992acd68c836752742b742332934ebdde32a0bbe607ee5b9c",
            ),
            F(
                "classes_full.json",
                "paper/results/classes_full.json",
                48640,
                "16a5366e1fd291e08c33f1a1b3647cdde74dd1600fa17c7bdfd6962abcfe3499",
            ),
            F(
                "final_status.jsonl",
                "paper/results/final_status.jsonl",
                2377177,
                "fd8c2a4f9adb4acb514bf8f126fe6d962cc20897420527a081bb60532b051d91",
            ),
            F(
                "gold.jsonl",
                "paper/results/gold.jsonl",
                3074,
                "faa449140b13b067c4e65e300f23c8bb6e94a94ebdbc030d58eb61b4fa1c92e5",
            ),
            F(
                "hard25_sample.jsonl",
                "paper/supplementary/corpus/hard25_sample.jsonl",
                2379,
                "23c8f0db48f54b604ff6e2f1de777dcc518d95a10b9a4928802ad3d4ca3d70a9",
            ),
            F(
                "order5_seeds.jsonl",
                "paper/problems/order5_seeds.jsonl",
                7280,
                "1bd7614ac37ac114e84312892473b0d5a4e3dab8a6e56eee369a36a94920f0a3",
            ),
            F(
                "transfer.json",
                "paper/results/transfer.json",
                370,
                "7bf2ba80bd1cdbb0561508ead3d31326ec51ff344358d84d742cd2be376eb251",
            ),
            F(
                "certs/ordered/12857.kbo.sat",
                None,
                186456,
                "a4ab60ce747e92512cd2bb0fcf34d931c63eeedcde82c1efe39ec9469d4e47de",
            ),
            F(
                "certs/ordered/4916.kbo.sat",
                None,
                1430,
                "16130c5b07087ae8ea4cf024be30f6eb00fe00752a6264092758a907c53e79ae",
            ),
            F(
                "certs/twee/12857.out",
                None,
                25459,
                "5d523f313245f0d0660adf4d3943d944e00d435e79c6059c863771741173512c",
            ),
            F(
                "certs/twee/33436.out",
                None,
                25216,
                "62bca3b542fb867761244d41c20377bfc03a1c70a7c19293352ec1cf7770a33d",
            ),
            F(
                "llm_runs/llm_autoform_o3_hard25.jsonl",
                None,
                7574,
                "8009f497276f324b9040d4c8d58dfd238ed4bdc6fae17d1e8f462b0b06ccd365",
            ),
            F(
                "llm_runs/llm_construct_gpt41_hard25.jsonl",
                None,
                30942,
                "73419bb7badc24c50d86035abed9d078961d44c4377eda1660d29fb71fd190cb",
            ),
            F(
                "llm_runs/llm_construct_o3_hard25.jsonl",
                None,
                6915,
                "a44805ddd0c374283a4e02fb6380f2a257079a36ed70b0f6ebceb227f6e03cb9",
            ),
            F(
                "llm_runs/llm_construct_o4mini_hard25.jsonl",
                None,
                18069,
                "353a139509dc5e04e467ef7c230ccc7f95fb24ba1bf55e0cb03af873ddea5d1b",
            ),
        ),
    ),
    Corpus(
        "minif2f_rocq",
        "LLM4Rocq/miniF2F-rocq",
        "b60affa",
        "MIT",
        (
            F(
                "LICENSE",
                None,
                1065,
                "fc8babbec5af5996f14f0d7a0d973255f36580550c2d539ba56b4f89af4145d3",
            ),
            F(
                "minif2f_rocq.jsonl",
                None,
                188094,
                "4b35b3b3d39dc3c99ba4d7f25cac7af44a14db5f0afde814e7ae42322b29f088",
            ),
            F(
                "portfolio_coq816_test.jsonl",
                None,
                29693,
                "59897e15de75d3cff219fe389f2ee48374b4f12d83be2825ce6550697b4c22ac",
            ),
        ),
    ),
    Corpus(
        "minif2f_lean4",
        "yangky11/miniF2F-lean4",
        "5746b7d",
        "MIT",
        (
            F(
                "LICENSE",
                None,
                1088,
                "da6d3703ed11cbe42bd212c725957c98da23cbff1998c05fa4b3d976d1a58e93",
            ),
            F(
                "minif2f_lean4.jsonl",
                None,
                190775,
                "c7bf5b3c2f292325f532a72cd365fdfbcf29fba34153fa78262537583d918529",
            ),
        ),
    ),
    Corpus(
        "opc_judge_test",
        "insait-institute/open-proof-corpus",
        "f51794e53d8ef2ae2e7f9a0be49809040f2a8f9c",
        "Apache-2.0",
        (
            F(
                "LICENSE.upstream.md",
                None,
                11335,
                "9144f1816e02f243299a45674e49cfb1059f5026c7f7b7e6ae7234963c6f3b51",
            ),
            F(
                "README.md",
                None,
                1634,
                "14bc4134cea5b4204fd1a7b738daafa545e3d1d55de2001744689f43f3f82548",
            ),
            F(
                "opc_judge_test.jsonl",
                None,
                3854884,
                "25a8201613e96cb05252276473691b3d8516ce8f7b60e8a49afd8765ac4fd2c5",
            ),
        ),
    ),
    Corpus(
        "prmbench_slice",
        "ssmisya/PRMBench",
        "a1ae4eab803e14c4c6316bf89d1679b0486faa8c",
        "Apache-2.0",
        (
            F(
                "LICENSE.upstream",
                None,
                11357,
                "c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4",
            ),
            F(
                "README.md",
                None,
                1061,
                "0b8e5333e59c02d3e16303dda0ce35e3977d9ad133f9e0d4a6f77055e18aa339",
            ),
            F(
                "prmbench_subset_slice.jsonl",
                None,
                376627,
                "bfb876974221985ad59e54a641f5794d263164899a01d4ea654f95bc377795d6",
            ),
        ),
    ),
)


def corpus(name: str) -> Corpus | None:
    return next((c for c in CATALOG if c.name == name), None)

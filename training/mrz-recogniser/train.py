"""Train the OCR-B MRZ line recogniser (issue #19 item 2) on synthetic lines only, and export it to ONNX.

Run with Debian's PyTorch (apt-get install python3-torch python3-pil python3-numpy):

    /usr/bin/python3 training/mrz-recogniser/train.py --steps 6000 --out src/engines/document/models/mrz-ocrb-crnn.onnx

A small convolutional recogniser (CTC over blank + the 37 MRZ characters) reading a line crop
32 px high, one output step per 4 px of width. `--eval FILE` (lines of `path<TAB>truth`) prints lines read exactly
and characters right on real crops while training; the real crops never enter training.
"""
import argparse
import random
import time

import numpy as np
import torch
import torch.nn as nn
from PIL import Image

import synth
from synth import ALPHABET, encode, rand_line, render, to_input

HEIGHT = 32


class Crnn(nn.Module):
    """Convolutions only (no LSTM: Debian's PyTorch trains an LSTM too slowly on 2 cores, and OCR-B is fixed
    pitch): a 2-D stack that collapses the 32 px height, then 1-D convolutions along the line (receptive field
    about two characters each side) and a per-step classifier."""

    def __init__(self, width=128):
        super().__init__()

        def block(cin, cout, k=3, p=1):
            return [nn.Conv2d(cin, cout, k, padding=p, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        self.cnn = nn.Sequential(
            *block(1, 16), nn.MaxPool2d(2, 2),  # 16 x W/2
            *block(16, 32), nn.MaxPool2d(2, 2),  # 8 x W/4
            *block(32, 64), *block(64, 64), nn.MaxPool2d((2, 1), (2, 1)),  # 4 x W/4
            *block(64, 96), nn.MaxPool2d((2, 1), (2, 1)),  # 2 x W/4
            *block(96, width, k=(2, 3), p=(0, 1)),  # 1 x W/4
        )
        self.head = nn.Sequential(
            nn.Conv1d(width, width, 5, padding=2, bias=False), nn.BatchNorm1d(width), nn.ReLU(inplace=True),
            nn.Conv1d(width, width, 5, padding=2, bias=False), nn.BatchNorm1d(width), nn.ReLU(inplace=True),
            nn.Conv1d(width, len(ALPHABET) + 1, 1),
        )

    def forward(self, x):  # x: [B, 1, 32, W]
        f = self.cnn(x).squeeze(2)  # [B, C, T]
        return self.head(f).permute(0, 2, 1)  # logits [B, T, 38]


def batch(n, pad_ctc=False):
    """n synthetic lines padded with paper to one width. `pad_ctc`: the CTC input length is the padded width, so the
    network also learns that a stretch of bare paper after the text holds no character (the first model was trained
    on each line's own width, and can read a "<" in a wide empty margin)."""
    imgs, texts = [], []
    for _ in range(n):
        img, t = render(rand_line())
        imgs.append(to_input(img, HEIGHT))
        texts.append(t)
    w = max(a.shape[1] for a in imgs)
    w = (w + 3) // 4 * 4
    x = np.ones((n, 1, HEIGHT, w), dtype=np.float32)  # pad with paper (+1)
    lens = []
    for i, a in enumerate(imgs):
        x[i, 0, :, : a.shape[1]] = a
        lens.append((w if pad_ctc else a.shape[1]) // 4)
    return torch.from_numpy(x), texts, lens


def greedy(logits):
    out = []
    for seq in logits.argmax(-1).tolist():
        s, prev = [], 0
        for k in seq:
            if k != prev and k != 0:
                s.append(ALPHABET[k - 1])
            prev = k
        out.append("".join(s))
    return out


def evaluate(model, rows):
    model.eval()
    exact = right = chars = 0
    with torch.no_grad():
        for path, truth in rows:
            a = to_input(Image.open(path).convert("L"), HEIGHT)
            x = torch.from_numpy(a)[None, None]
            read = greedy(model(x))[0]
            exact += read == truth
            chars += len(truth)
            right += sum(1 for i, c in enumerate(truth) if i < len(read) and read[i] == c)
    model.train()
    return exact, len(rows), right, chars


class WithSoftmax(nn.Module):
    """What is shipped: the network with its softmax, so the output is per-step class probabilities."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x).softmax(-1)


def export(model, out):
    model.eval()
    torch.onnx.export(
        WithSoftmax(model), torch.zeros(1, 1, HEIGHT, 400), out, input_names=["x"], output_names=["probs"],
        dynamic_axes={"x": {0: "batch", 3: "width"}, "probs": {0: "batch", 1: "steps"}}, opset_version=13,
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--eval", default=None)
    ap.add_argument("--eval-every", type=int, default=500)
    ap.add_argument("--out", default="mrz-ocrb-crnn.onnx")
    ap.add_argument("--checkpoint", default="/tmp/mrz-crnn.pt")
    ap.add_argument("--resume", default=None)
    ap.add_argument("--pad-ctc", action="store_true", help="CTC input length over the padded width")
    ap.add_argument("--hmnw-share", type=float, default=0.0, help="share of name letters drawn from H, M, N, W")
    args = ap.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    synth.HMNW_SHARE = args.hmnw_share
    model = Crnn()
    if args.resume:
        model.load_state_dict(torch.load(args.resume))
    print("parameters", sum(p.numel() for p in model.parameters()), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.1)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    rows = []
    if args.eval:
        for line in open(args.eval):
            p, t = line.rstrip("\n").split("\t")
            rows.append((p, t))
    t0 = time.time()
    avg = None
    for step in range(1, args.steps + 1):
        x, texts, lens = batch(args.batch, args.pad_ctc)
        logits = model(x)
        logp = logits.log_softmax(-1).permute(1, 0, 2)  # [T, B, C]
        targets = torch.tensor([k for t in texts for k in encode(t)], dtype=torch.long)
        tl = torch.tensor([len(t) for t in texts], dtype=torch.long)
        il = torch.tensor(lens, dtype=torch.long)
        loss = ctc(logp, targets, il, tl)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        sched.step()
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if step % 100 == 0:
            print(f"step {step} loss {avg:.3f} {time.time() - t0:.0f}s", flush=True)
        if rows and (step % args.eval_every == 0 or step == args.steps):
            e, n, r, c = evaluate(model, rows)
            print(f"  eval: lines exact {e}/{n}, characters right {r}/{c} ({100 * r / c:.1f} %)", flush=True)
            torch.save(model.state_dict(), args.checkpoint)
    torch.save(model.state_dict(), args.checkpoint)
    export(model, args.out)
    print("exported", args.out, flush=True)


if __name__ == "__main__":
    main()

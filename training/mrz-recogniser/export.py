"""Export a training checkpoint (state dict) to the shipped ONNX form: python3 export.py model.pt out.onnx"""
import sys

import torch

from train import Crnn, export

model = Crnn()
model.load_state_dict(torch.load(sys.argv[1]))
export(model, sys.argv[2])
print("exported", sys.argv[2])
